package eu.vpki.testbed;

import eu.vpki.common.process.ChildProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One service of the local cluster as a child JVM ({@code java -jar}), its output in one log file
 * (appended to across restarts). Started (on a {@link Host}: through its launch prefix), awaited
 * until {@code /actuator/health} on its management port answers UP, paused and resumed (SIGSTOP /
 * SIGCONT, as a long GC pause or a frozen VM), stopped with SIGTERM (Spring Boot's graceful
 * shutdown) and, failing that, killed (SIGKILL, as a crash). One object per process: a restart is a
 * new {@code ServiceProcess}. {@link ChildProcess} reaps it, and its shutdown hook ends whatever is left,
 * so neither Ctrl-C nor a crash leaves processes behind.
 */
public final class ServiceProcess implements AutoCloseable {
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    /** When this JVM exits: SIGTERM, and SIGKILL after this long ({@link ChildProcess}'s shutdown hook). */
    private static final Duration EXIT_GRACE = Duration.ofSeconds(5);

    private final String name;
    private final ChildProcess process;
    private final URI baseUrl;
    private final URI managementUrl;
    private final Path log;

    private volatile boolean paused;

    private ServiceProcess(String name, ChildProcess process, URI baseUrl, URI managementUrl, Path log) {
        this.name = name;
        this.process = process;
        this.baseUrl = baseUrl;
        this.managementUrl = managementUrl;
        this.log = log;
    }

    /** Environment variable with JVM options appended to every service's own (later options win). */
    public static final String EXTRA_JVM_OPTIONS = "VPKI_SERVICE_JVM_OPTS";

    /**
     * Starts {@code java [jvmOptions] [$VPKI_SERVICE_JVM_OPTS] -jar jar [--key=value ...]} with output appended to {@code logDir/name.log}.
     *
     * @param baseUrl       where the service will listen
     * @param managementUrl where its actuator will listen ({@code management.server.port}: the health check)
     */
    public static ServiceProcess start(String name, Path jar, List<String> jvmOptions, Map<String, String> properties,
                                       Map<String, String> environment, URI baseUrl, URI managementUrl, Path logDir) {
        return start(name, List.of(), jar, jvmOptions, properties, environment, baseUrl, managementUrl, logDir);
    }

    /**
     * As {@link #start(String, Path, List, Map, Map, URI, URI, Path)}, the command preceded by
     * {@code launchPrefix} (a {@link Host}'s, e.g. {@code ip netns exec NS}, which execs the JVM).
     */
    public static ServiceProcess start(String name, List<String> launchPrefix, Path jar, List<String> jvmOptions,
                                       Map<String, String> properties, Map<String, String> environment, URI baseUrl,
                                       URI managementUrl, Path logDir) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " not found: build first (mvn -B -DskipTests package)");
        }
        List<String> command = new ArrayList<>(launchPrefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        String extra = System.getenv(EXTRA_JVM_OPTIONS);
        if (extra != null && !extra.isBlank()) {
            command.addAll(List.of(extra.trim().split("\\s+")));
        }
        command.add("-jar");
        command.add(jar.toString());
        properties.forEach((k, v) -> command.add("--" + k + "=" + v));
        try {
            Files.createDirectories(logDir);
            Path log = logDir.resolve(name + ".log");
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().putAll(environment);
            ChildProcess p = ChildProcess.start(pb, name, STOP_TIMEOUT, EXIT_GRACE);
            return new ServiceProcess(name, p, baseUrl, managementUrl, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    /** Waits until the service reports UP; fails with the tail of its log if it exits or times out. */
    public ServiceProcess awaitHealthy(HttpClient http, Duration timeout) {
        return awaitHealth(http, timeout, r -> r.statusCode() == 200 && r.body().contains("\"UP\""), "healthy");
    }

    /**
     * Waits until a replica has joined its group, serving or not: its health answers and no longer
     * names the replica state {@code starting} (a replica alone in its group is connected but out of
     * service, as in a minority). Fails with the tail of its log if it exits or times out.
     */
    public ServiceProcess awaitConnected(HttpClient http, Duration timeout) {
        return awaitHealth(http, timeout, r -> (r.statusCode() == 200 || r.statusCode() == 503) && r.body().contains("\"state\"")
                && !r.body().contains("\"state\":\"starting\""), "connected");
    }

    private ServiceProcess awaitHealth(HttpClient http, Duration timeout, java.util.function.Predicate<HttpResponse<String>> ready,
                                       String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        URI health = managementUrl.resolve("/actuator/health");
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + tail(40));
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (ready.test(r)) {
                    return this;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + name, e);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + name, e);
            }
        }
        throw new IllegalStateException(name + " not " + what + " after " + timeout + ":\n" + tail(40));
    }

    public String name() {
        return name;
    }

    public URI baseUrl() {
        return baseUrl;
    }

    /** Where its actuator (health, Prometheus metrics) answers. */
    public URI managementUrl() {
        return managementUrl;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path log() {
        return log;
    }

    /** The last lines of the service's log. */
    public String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** SIGKILL, as a crash would. */
    public void kill() {
        process.kill();
    }

    /** SIGSTOP: the process freezes (threads, timers, sockets unread) until {@link #resume()}. */
    public void pause() {
        signal("STOP");
        paused = true;
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() {
        signal("CONT");
        paused = false;
    }

    public boolean isPaused() {
        return paused;
    }

    private void signal(String name) {
        if (!process.isAlive()) {
            throw new IllegalStateException(this.name + " is not running");
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).redirectErrorStream(true).start();
            String out = new String(kill.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed: " + out.strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot signal " + this.name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted signalling " + this.name, e);
        }
    }

    /** Asks the service to stop (SIGTERM) without waiting; {@link #close()} waits. */
    public void requestStop() {
        if (paused && process.isAlive()) {
            resume();
        }
        process.terminate();
    }

    /** Waits up to {@code timeout} for the process to exit on its own; whether it did. */
    public boolean awaitExit(Duration timeout) {
        return process.waitFor(timeout);
    }

    @Override
    public void close() {
        if (paused && process.isAlive()) {
            resume();
        }
        if (process.isAlive()) {
            requestStop();
            process.stop();
        } else {
            process.awaitExit();
        }
    }
}
