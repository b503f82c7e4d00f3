package eu.vpki.testbed;

import java.util.List;
import java.util.function.Consumer;

/**
 * Records the services' class-data archives ({@link AppCdsArchive}) once per build, so that every
 * later start of a local PKI maps them: a one-of-each cluster started and stopped, whose JVMs write
 * their archive as they exit.
 */
public final class ClassDataRecording {
    private ClassDataRecording() {
    }

    /**
     * Records the archives unless they match the current jars: starts a one-of-each cluster of
     * {@code spec} (same ports, work directory {@code <work-dir>/class-data}) whose JVMs record as they
     * exit, stops it and waits until each JVM has exited, that is, has written its archive. Run it
     * before starting a cluster, never beside one on the same ports.
     *
     * @return whether every service jar has a current archive afterwards (else services start without)
     */
    public static boolean record(ClusterSpec spec, Consumer<String> log) {
        if (current(spec)) {
            return true;
        }
        ClusterStateFile.refuseIfRunning(spec.workDir());
        long started = System.nanoTime();
        log.accept("recording class-data archives (a one-of-each cluster started and stopped, once per build) ...");
        ClusterSpec recording = new ClusterSpec(spec.projectDir(), spec.workDir().resolve("class-data"), 1, 1, 1, "FIFO", "ASYNC",
                spec.basePort(), spec.jgroupsBasePort(), spec.authorityCurve());
        try (LocalCluster cluster = LocalCluster.boot(recording, new LoopbackNetwork(), LocalCluster.Routes.DIRECT, true, line -> {
        })) {
            cluster.endpoints();
        } catch (RuntimeException e) {
            log.accept("class-data archives not recorded (services start without them): " + e.getMessage());
            return false;
        }
        List<String> missing = ServiceJars.SERVICE_MODULES.stream()
                .filter(m -> !AppCdsArchive.of(ServiceJars.jar(spec.projectDir(), m)).isCurrent()).toList();
        log.accept(missing.isEmpty()
                ? String.format("class-data archives recorded in %.0f s", (System.nanoTime() - started) / 1e9)
                : "class-data archives not recorded for " + missing + " (they start without)");
        return missing.isEmpty();
    }

    /** Whether every service jar of {@code spec}'s checkout has an archive recorded for it. */
    public static boolean current(ClusterSpec spec) {
        return ServiceJars.SERVICE_MODULES.stream().allMatch(m -> AppCdsArchive.of(ServiceJars.jar(spec.projectDir(), m)).isCurrent());
    }
}
