package eu.vpki.faults;

import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.replication.RedisStateMachine;
import eu.vpki.testbed.ClusterSpec;
import eu.vpki.testbed.HostNetwork;
import eu.vpki.testbed.LocalCluster;
import eu.vpki.testbed.ReplicaNode;
import eu.vpki.station.ObuProtocol;
import eu.vpki.station.PkiEndpoints;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One run of one consistency mode: starts the cluster on the given network, runs the workload,
 * injects the seeded schedule of faults one after the other, stops the workload, heals everything,
 * waits a quiet period (probing every replica's health about once a second from the heal on), reads
 * every replica's Redis, and writes the history file. The checks run
 * on the returned {@link RunRecord} (and on the file, later, with {@code --recheck}).
 */
public final class FaultRun {
    /**
     * @param spec             the cluster (mode, replica counts, ports, appendfsync, failure detection)
     * @param seed             the schedule's seed
     * @param counts           faults per kind
     * @param timing           hold times and gaps of the schedule
     * @param failureDetection the replicas' failure-detection timeout (the services' default when the spec leaves it)
     * @param warmup           workload alone before the first fault
     * @param quiet            after the last fault healed and the workload stopped, before the replicas are read
     * @param workload         rate and shape of the workload
     * @param outDir           where the history file goes
     * @param budget           no fault starts later than this after the first one; the rest are recorded as skipped
     * @param fleet            stations registered before the workload starts (the scale mode, {@link FleetFill}); 0 for none
     */
    public record Config(ClusterSpec spec, long seed, Map<FaultKind, Integer> counts, FaultSchedule.Timing timing,
                         Duration failureDetection, Duration warmup, Duration quiet, ConsistencyWorkload.Settings workload,
                         Path outDir, Duration budget, long fleet) {
        public Config {
            counts = Map.copyOf(counts);
            if (fleet < 0) {
                throw new IllegalArgumentException("a negative fleet: " + fleet);
            }
        }

        /** Without a fleet fill. */
        public Config(ClusterSpec spec, long seed, Map<FaultKind, Integer> counts, FaultSchedule.Timing timing, Duration failureDetection,
                      Duration warmup, Duration quiet, ConsistencyWorkload.Settings workload, Path outDir, Duration budget) {
            this(spec, seed, counts, timing, failureDetection, warmup, quiet, workload, outDir, budget, 0);
        }
    }

    /** How often each replica's health is probed from the heal until the state is read. */
    static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);
    /** How often each replica's heap, Redis memory and command log are sampled through the run. */
    static final Duration RESOURCE_INTERVAL = Duration.ofSeconds(5);

    /** A test's hook between the quiet period and the reading of the replicas (to inject a fault a checker must find). */
    @FunctionalInterface
    public interface BeforeRead {
        void accept(LocalCluster cluster, List<Op> history) throws Exception;
    }

    /**
     * Load of an experiment's own, run while the recorded workload runs, after the warm-up and before
     * the first fault: the history then shows what the mode does under that load (docs/experiments.md).
     */
    @FunctionalInterface
    public interface DuringWorkload {
        void accept(LocalCluster cluster) throws Exception;
    }

    /** What a run produced. */
    public record Result(RunRecord record, Path history) {
    }

    private FaultRun() {
    }

    /** The history file name of a mode and seed. */
    public static String historyName(ClusterSpec spec, long seed) {
        return spec.order().toLowerCase(java.util.Locale.ROOT) + "-" + spec.propagation().toLowerCase(java.util.Locale.ROOT) + "-"
                + seed + ".history.jsonl.gz";
    }

    public static Result run(Config config, HostNetwork network, BeforeRead beforeRead, Consumer<String> log) throws Exception {
        return run(config, network, null, beforeRead, log);
    }

    /** As {@link #run(Config, HostNetwork, BeforeRead, Consumer)}, with {@code during} run after the warm-up (none if null). */
    public static Result run(Config config, HostNetwork network, DuringWorkload during, BeforeRead beforeRead, Consumer<String> log)
            throws Exception {
        ClusterSpec spec = config.spec();
        List<FaultPlan> schedule = FaultSchedule.draw(config.seed(), config.counts(), spec.groupSize(), config.failureDetection(),
                config.timing());
        log.accept(
                String.format("%s: %d faults drawn from seed %d on %s", spec.mode(), schedule.size(), config.seed(), network.describe()));
        Instant started = Instant.now();
        History history = new History();
        List<FaultEvent> events = new ArrayList<>();
        List<ReplicaState> states = new ArrayList<>();
        List<RunRecord.IssuedToken> tokens = new ArrayList<>();
        // the replicas' health from the heal until their state is read (LivenessChecker)
        java.util.concurrent.ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(
                ConsistencyWorkload.daemon("faults-liveness"));
        List<RunRecord.Sample> samples = java.util.Collections.synchronizedList(new ArrayList<>());
        // heap, Redis memory and command-log size of every replica through the run (ResourceChecker)
        java.util.concurrent.ScheduledExecutorService resourceSampler = Executors.newSingleThreadScheduledExecutor(
                ConsistencyWorkload.daemon("faults-resources"));
        List<RunRecord.Resources> resources = java.util.Collections.synchronizedList(new ArrayList<>());
        long healedMs;
        try (LocalCluster cluster = LocalCluster.start(spec, network, log)) {
            LocalCluster.Endpoints e = cluster.endpoints();
            // trusts the cluster's TLS CA: the Operators speak https only
            HttpClient http = cluster.client(Duration.ofSeconds(2))
                    .executor(Executors.newCachedThreadPool(ConsistencyWorkload.daemon("faults-http"))).build();
            FleetFill.Result filled = FleetFill.fill(http, e.operators(), e.operatorToken(), config.fleet(), log);
            if (config.fleet() > 0) {
                log.accept(String.format(java.util.Locale.ROOT, "fleet of %,d stations registered in %.0f s (%.0f stations/s, %d retries)",
                        filled.stations(), filled.millis() / 1000.0, filled.perSecond(), filled.retries()));
            }
            ConsistencyWorkload workload = workload(cluster, history, http, config.workload());
            FaultInjector injector = new FaultInjector(cluster.replicas(), network, http, history, spec.order().equals("TOTAL"),
                    FaultInjector.Limits.defaults(), config.timing(), log);
            workload.start();
            String logPrefix = FleetKeys.KEYSPACE.logKey("");
            resourceSampler.scheduleWithFixedDelay(() -> cluster.replicas().forEach(r -> {
                try {
                    resources.add(injector.views().resources(r, logPrefix, history::now));
                } catch (RuntimeException failed) {
                    resources.add(new RunRecord.Resources(r.name(), history.now(), -1, -1, -1, -1));
                }
            }), 0, RESOURCE_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
            try {
                TimeUnit.MILLISECONDS.sleep(config.warmup().toMillis());
                if (during != null) {
                    during.accept(cluster);
                }
                long firstFault = history.now();
                for (FaultPlan plan : schedule) {
                    if (history.now() - firstFault > config.budget().toMillis()) {
                        events.add(
                                injector.skip(plan, "skipped: the run's time budget (" + config.budget().toMinutes() + " min) was spent"));
                        continue;
                    }
                    events.add(injector.inject(plan));
                    log.accept(String.format("  %d/%d faults done, %d operations so far", events.size(), schedule.size(), history.size()));
                    TimeUnit.MILLISECONDS.sleep(plan.gapMs());
                }
            } finally {
                log.accept("stopping the workload");
                workload.close();
                healedMs = history.now();
                sampler.scheduleWithFixedDelay(() -> cluster.replicas().forEach(r -> {
                    try {
                        RunRecord.Sample sample = injector.views().serving(r, history::now);
                        if (sample != null) {
                            samples.add(sample);
                        }
                    } catch (RuntimeException failed) {
                        // one failed probe must not end the sampling (a scheduled task that throws is not run again)
                        samples.add(new RunRecord.Sample(r.name(), history.now(), false, "probe failed: " + failed));
                    }
                }), 0, SAMPLE_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
                if (!injector.restoreAll()) {
                    log.accept("the group did not show one whole view after restoring every replica");
                }
            }
            log.accept("quiet period " + config.quiet().toSeconds() + " s");
            TimeUnit.MILLISECONDS.sleep(config.quiet().toMillis());
            if (beforeRead != null) {
                beforeRead.accept(cluster, history.ops());
            }
            sampler.shutdownNow();
            sampler.awaitTermination(10, TimeUnit.SECONDS);
            resourceSampler.shutdownNow();
            resourceSampler.awaitTermination(10, TimeUnit.SECONDS);
            // the last word on every replica's resources, taken after the quiet period, just before the read
            cluster.replicas().forEach(r -> resources.add(injector.views().resources(r, logPrefix, history::now)));
            for (ReplicaNode r : cluster.replicas()) {
                states.add(read(r, config.fleet() > 0));
                if (r.kind() == ReplicaNode.Kind.EA && r.jvm() != null) {
                    tokens.addAll(AuditTokens.read(r.name(), LocalCluster.auditDir(spec)));
                }
            }
            RunRecord.Info info = new RunRecord.Info(spec.order(), spec.propagation(), config.seed(), network.describe(),
                    network.partitionable(), config.failureDetection().toMillis(), config.quiet().toMillis(),
                    cluster.replicas().stream().map(ReplicaNode::name).toList(), spec.groupSize(), started,
                    history.now(), schedule, settings(config, e, workload, filled));
            List<RunRecord.Sample> sorted = new ArrayList<>(samples);
            sorted.sort(java.util.Comparator.comparingLong(RunRecord.Sample::atMs));
            List<RunRecord.Resources> sampled = new ArrayList<>(resources);
            sampled.sort(java.util.Comparator.comparingLong(RunRecord.Resources::atMs));
            RunRecord record = new RunRecord(info, history.ops(), events, tokens, states, new RunRecord.Serving(healedMs, sorted), sampled);
            Path file = config.outDir().resolve(historyName(spec, config.seed()));
            HistoryFile.write(file, record);
            log.accept("history written to " + file);
            return new Result(record, file);
        } catch (Exception failure) {
            sampler.shutdownNow();
            resourceSampler.shutdownNow();
            // keep what was recorded so far: a failed run is still evidence
            if (!history.ops().isEmpty()) {
                Path partial = config.outDir().resolve(historyName(spec, config.seed()).replace(".history", ".partial.history"));
                RunRecord.Info info = new RunRecord.Info(spec.order(), spec.propagation(), config.seed(), network.describe(),
                        network.partitionable(), config.failureDetection().toMillis(), config.quiet().toMillis(), List.of(),
                        spec.groupSize(), started, history.now(), schedule, Map.of("failure", String.valueOf(failure)));
                HistoryFile.write(partial, new RunRecord(info, history.ops(), events, tokens, states));
                log.accept("run failed; partial history written to " + partial);
            }
            throw failure;
        }
    }

    private static ConsistencyWorkload workload(LocalCluster cluster, History history, HttpClient http,
                                                ConsistencyWorkload.Settings settings)
            throws IOException {
        LocalCluster.Endpoints e = cluster.endpoints();
        Clock clock = Clock.systemUTC();
        EtsiCertificate rca = EtsiCertificate.decode(Files.readAllBytes(e.rcaCertificate()));
        PkiEndpoints pki = PkiEndpoints.discover(List.of(e.dc()), rca, clock.instant(), cluster.sslContext());
        SecureRandom random = new SecureRandom();
        ObuProtocol obu = new ObuProtocol(http, new DataEncryption(random), random, clock, pki, ConsistencyWorkload.AT_PERMISSIONS,
                settings.requestTimeout());
        List<ConsistencyWorkload.Endpoint> operators = new ArrayList<>();
        List<ConsistencyWorkload.Endpoint> eas = new ArrayList<>();
        for (ReplicaNode r : cluster.replicas()) {
            (r.kind() == ReplicaNode.Kind.EA ? eas : operators).add(new ConsistencyWorkload.Endpoint(r.name(), r.url()));
        }
        List<ConsistencyWorkload.Endpoint> aas = new ArrayList<>();
        for (int i = 0; i < e.aas().size(); i++) {
            aas.add(new ConsistencyWorkload.Endpoint("aa-" + i, e.aas().get(i)));
        }
        return new ConsistencyWorkload(history, http, obu, operators, e.operatorToken(), eas, aas, settings);
    }

    /**
     * One replica's state through the replication library; unreadable (with the reason) if its Redis does not answer.
     * With {@code withoutFleet}, the keys and set members of the fleet fill ({@link FleetFill#ID_PREFIX}) are left out of
     * the contents (a million stations would not fit the history file); the digest still covers them, so that the
     * divergence check compares them too.
     */
    static ReplicaState read(ReplicaNode r, boolean withoutFleet) {
        try {
            RedisStateMachine machine = r.stateMachine(FleetKeys.KEYSPACE);
            String digest = machine.digest();
            java.util.SortedMap<String, RedisStateMachine.KeyContent> contents = machine.contents();
            if (withoutFleet) {
                contents = FleetFill.withoutFill(contents);
            }
            return new ReplicaState(r.name(), digest, machine.appliedSeqs(), contents, null);
        } catch (RuntimeException e) {
            return ReplicaState.unreadable(r.name(), e.toString());
        }
    }

    private static Map<String, String> settings(Config config, LocalCluster.Endpoints e, ConsistencyWorkload workload,
                                                FleetFill.Result filled) {
        Map<String, String> s = new LinkedHashMap<>();
        ClusterSpec spec = config.spec();
        s.put("cluster", spec.describe());
        s.put("operatorId", e.operatorId());
        s.put("appendfsync", spec.appendFsync());
        s.put("failureDetection", config.failureDetection().toString());
        s.put("counts", config.counts().toString());
        s.put("timing", config.timing().toString());
        s.put("warmup", config.warmup().toString());
        s.put("quiet", config.quiet().toString());
        s.put("budget", config.budget().toString());
        s.put("workload", config.workload().toString());
        s.put("stations", Integer.toString(workload.stations()));
        s.put("fleet", filled.stations() == 0
                ? "none"
                : filled.stations() + " stations registered before the workload in " + filled.millis() + " ms (" + filled.retries()
                        + " retries)");
        s.put("clocks", config.spec().faketime() == null ? "real" : "libfaketime " + config.spec().faketime());
        s.put("machine", Runtime.getRuntime().availableProcessors() + " cores");
        s.put("commit", commit(spec.projectDir()));
        s.put("logs", e.logDir().toString());
        return s;
    }

    /** The checkout's commit (and whether the replication code differs from it), or "unknown". */
    public static String commit(Path projectDir) {
        try {
            Process p = new ProcessBuilder("git", "-C", projectDir.toString(), "log", "-1", "--format=%h %cs %s").redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            Process dirty = new ProcessBuilder("git", "-C", projectDir.toString(), "status", "--porcelain", "--",
                    "common/src/main/java/eu/vpki/common/replication", "common/src/main/resources").redirectErrorStream(true).start();
            String changes = new String(dirty.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return "unknown";
            }
            dirty.waitFor(10, TimeUnit.SECONDS);
            return changes.isEmpty() ? out : out + " (replication code modified in the checkout)";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
