package eu.vpki.common.testing;

import org.testcontainers.DockerClientFactory;

/**
 * Whether a Docker engine is reachable, checked once per JVM. Use it with JUnit's
 * {@code @EnabledIf("eu.vpki.common.testing.DockerEngine#isReachable")} for tests that need
 * Testcontainers, so they are skipped (not failed) on machines without a daemon.
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
                    known = probe();
                    reachable = known;
                }
            }
        }
        return known;
    }

    private static boolean probe() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
