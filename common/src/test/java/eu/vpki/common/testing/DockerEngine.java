package eu.vpki.common.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.testcontainers.DockerClientFactory;

/**
 * Whether a Docker engine is reachable, checked once per JVM. Use it with JUnit's
 * {@code @EnabledIf("eu.vpki.common.testing.DockerEngine#isReachable")} for tests that need
 * Testcontainers, so they are skipped (not failed) on machines without a daemon.
 *
 * <p>Testcontainers is asked only where a Docker endpoint could be configured at all
 * ({@link #endpointConfigured}): on a machine with none of them its probe would only log an ERROR
 * ("Could not find a valid Docker environment") into every test's and benchmark's output.
 */
public final class DockerEngine {

    private static volatile Boolean reachable;

    private DockerEngine() {
    }

    /** True when Testcontainers can talk to a Docker engine; never throws. */
    public static boolean isReachable() {
        Boolean known = reachable;
        if (known == null) {
            synchronized (DockerEngine.class) {
                known = reachable;
                if (known == null) {
                    known = endpointConfigured(System.getenv(), Path.of(System.getProperty("user.home")), Path.of("/"))
                            && probe();
                    reachable = known;
                }
            }
        }
        return known;
    }

    /**
     * Whether anything Testcontainers looks for to find a Docker engine is there: {@code DOCKER_HOST} or a
     * {@code TESTCONTAINERS_*} variable, {@code ~/.testcontainers.properties}, a {@code ~/.docker} directory
     * (contexts, Docker Desktop's and rootless sockets), the system socket {@code /var/run/docker.sock} or
     * {@code /run/docker.sock}, or a rootless socket under {@code $XDG_RUNTIME_DIR} or {@code /run/user/*}.
     * {@code root} stands for {@code /} (tests give a directory of their own).
     */
    static boolean endpointConfigured(Map<String, String> env, Path home, Path root) {
        if (env.containsKey("DOCKER_HOST") || env.keySet().stream().anyMatch(k -> k.startsWith("TESTCONTAINERS_"))) {
            return true;
        }
        List<Path> candidates = new ArrayList<>(List.of(
                home.resolve(".testcontainers.properties"),
                home.resolve(".docker"),
                root.resolve("var/run/docker.sock"),
                root.resolve("run/docker.sock")));
        String runtime = env.get("XDG_RUNTIME_DIR");
        if (runtime != null && !runtime.isBlank()) {
            candidates.add(Path.of(runtime).resolve("docker.sock"));
            candidates.add(Path.of(runtime).resolve(".docker/run/docker.sock"));
        }
        if (candidates.stream().anyMatch(Files::exists)) {
            return true;
        }
        try (var users = Files.list(root.resolve("run/user"))) {
            return users.anyMatch(user -> Files.exists(user.resolve("docker.sock")));
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    private static boolean probe() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
