package eu.vpki.faults.cli;

import eu.vpki.testbed.ClassDataRecording;
import eu.vpki.testbed.cli.NetworkOptions;
import eu.vpki.testbed.cli.PlacementOptions;
import eu.vpki.testbed.ClusterSpec;
import eu.vpki.testbed.HostNetwork;
import eu.vpki.testbed.NamespaceNetwork;
import eu.vpki.faults.ConsistencyWorkload;
import eu.vpki.faults.FaultKind;
import eu.vpki.faults.FaultPlan;
import eu.vpki.faults.FaultReport;
import eu.vpki.faults.FaultReportWriter;
import eu.vpki.faults.FaultRun;
import eu.vpki.faults.FaultSchedule;
import eu.vpki.faults.HistoryFile;
import eu.vpki.faults.RunRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code faults}: the fault-injection harness (docs/reliability.md). Starts the local cluster in
 * each chosen consistency mode, runs the recorded workload, injects the seeded faults, checks the
 * history after healing and a quiet period, and reports. Exit code 0 when every promised guarantee
 * held, 1 when one was violated, 2 when a run could not be completed.
 */
@Command(name = "faults", mixinStandardHelpOptions = true, sortOptions = false, description = {
        "Fault-injection harness (docs/reliability.md): the local cluster on real processes,",
        "a recorded workload, a seeded schedule of faults (kill -9 of replica JVMs and",
        "redis-servers, SIGSTOP pauses, partitions dropping, refusing and one-way, full",
        "restarts stalest first, sequencer kills, long outages, empty joins through a",
        "snapshot, lost Redis data, clock offsets and steps), then the checks of what each",
        "consistency mode promises; --fleet fills the state with a fleet first.",
        "Exit code: 0 every promised guarantee held, 1 one was violated, 2 a run failed.", ""})
public final class FaultsCommand implements Callable<Integer> {
    static final int VIOLATED = 1;
    static final int FAILED = 2;

    @Option(names = "--recheck", arity = "1..*", paramLabel = "HISTORY", description = "judge these history files again (no cluster) and write one report over all of them")
    List<Path> recheck = new ArrayList<>();
    @Option(names = "--print-schedule", description = "print the schedule the seed and options give, then exit")
    boolean printSchedule;
    @Option(names = "--cleanup", description = "remove namespaces, links and processes left by an earlier run with --net-prefix, then exit")
    boolean cleanup;

    // ---- cluster ----
    @Mixin
    PlacementOptions placement = new PlacementOptions(Path.of("run/faults/cluster"));
    @Option(names = "--ea-replicas", defaultValue = "3", description = "EA replicas (default ${DEFAULT-VALUE})")
    int eaReplicas;
    @Option(names = "--operators", defaultValue = "2", description = "Operator replicas (default ${DEFAULT-VALUE})")
    int operators;
    @Option(names = "--aas", defaultValue = "1", description = "AA processes (default ${DEFAULT-VALUE})")
    int aas;
    @Option(names = "--order", defaultValue = "TOTAL", description = "TOTAL or FIFO (default ${DEFAULT-VALUE})")
    String order;
    @Option(names = "--propagation", defaultValue = "SYNC", description = "SYNC or ASYNC (default ${DEFAULT-VALUE})")
    String propagation;
    @Option(names = "--modes", split = ",", paramLabel = "MODE", description = "'all' for the four modes, or a list like TOTAL+SYNC,FIFO+ASYNC (instead of --order/--propagation)")
    List<String> modes = new ArrayList<>();
    @Option(names = "--appendfsync", defaultValue = "everysec", description = "redis-server appendfsync: always, everysec, no (default ${DEFAULT-VALUE})")
    String appendFsync;
    @Option(names = "--failure-detection", defaultValue = "20s", converter = DurationConverter.class, description = "replicas' failure-detection timeout; pauses and partitions last longer (default ${DEFAULT-VALUE}, the services' default)")
    Duration failureDetection;
    /** On loopback partitions are skipped (they need a network namespace per host). */
    @Mixin
    NetworkOptions network = new NetworkOptions("auto", "vpkif", "10.217.0.0/16");

    // ---- schedule ----
    @Option(names = "--seed", description = "schedule seed (default: drawn at random and printed)")
    Long seed;
    @Option(names = "--faults", split = ",", paramLabel = "KIND", description = "only these kinds (replica-kill, redis-kill, pause, partition-minority, partition-coordinator, full-restart, sequencer-kill, long-outage, double-kill, catchup-crash, empty-join, empty-join-crash, redis-data-loss, short-pause, partition-refusing, partition-one-way, clock-ahead, clock-behind, clock-step)")
    List<String> only = new ArrayList<>();
    @Option(names = "--count", split = ",", paramLabel = "KIND=N", description = "how many faults of a kind, any kind (overrides the options below), e.g. --count empty-join=3,long-outage=1; defaults: docs/reliability.md")
    Map<String, Integer> count = new java.util.LinkedHashMap<>();
    @Option(names = "--long-outage", defaultValue = "1m", converter = DurationConverter.class, description = "how long a long-outage keeps its replica down (default ${DEFAULT-VALUE}; the full matrix: 15m)")
    Duration longOutage;
    @Option(names = "--clock-offset", defaultValue = "240s", converter = DurationConverter.class, description = "how far clock-ahead, clock-behind and clock-step set a replica's clock (default ${DEFAULT-VALUE})")
    Duration clockOffset;
    @Option(names = "--faketime", defaultValue = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1", description = "libfaketime, preloaded into the replica JVMs when the schedule has clock faults (Debian: apt-get install faketime) (default ${DEFAULT-VALUE})")
    Path faketime;
    @Option(names = "--fleet", defaultValue = "0", description = "scale mode: register this many stations before the workload and the faults begin, e.g. 1000000 (default ${DEFAULT-VALUE})")
    long fleet;
    @Option(names = "--replica-kills", defaultValue = "20", description = "kill -9 of a replica JVM (default ${DEFAULT-VALUE})")
    int replicaKills;
    @Option(names = "--redis-kills", defaultValue = "5", description = "kill -9 of a replica's redis-server (default ${DEFAULT-VALUE})")
    int redisKills;
    @Option(names = "--pauses", defaultValue = "3", description = "SIGSTOP of 1 or 2 replicas (default ${DEFAULT-VALUE})")
    int pauses;
    @Option(names = "--minority-partitions", defaultValue = "6", description = "a minority cut off (default ${DEFAULT-VALUE})")
    int minorityPartitions;
    @Option(names = "--coordinator-partitions", defaultValue = "4", description = "the coordinator isolated (default ${DEFAULT-VALUE})")
    int coordinatorPartitions;
    @Option(names = "--full-restarts", defaultValue = "3", description = "whole group restarted, stalest first (default ${DEFAULT-VALUE})")
    int fullRestarts;
    @Option(names = "--sequencer-kills", defaultValue = "5", description = "kill -9 of the coordinator, TOTAL only (default ${DEFAULT-VALUE})")
    int sequencerKills;
    @Option(names = "--restart-delay", split = ",", defaultValue = "2s,8s", converter = DurationConverter.class, paramLabel = "MIN,MAX", description = "a killed process is restarted after a delay in this range (default ${DEFAULT-VALUE})")
    List<Duration> restartDelay;
    @Option(names = "--over-detection", split = ",", defaultValue = "5s,20s", converter = DurationConverter.class, paramLabel = "MIN,MAX", description = "pauses and partitions last the failure detection plus this (default ${DEFAULT-VALUE})")
    List<Duration> overDetection;
    @Option(names = "--write-window", split = ",", defaultValue = "5s,15s", converter = DurationConverter.class, paramLabel = "MIN,MAX", description = "writes go on this long while the stalest replica is down before a full restart (default ${DEFAULT-VALUE})")
    List<Duration> writeWindow;
    @Option(names = "--gap", split = ",", defaultValue = "2s,6s", converter = DurationConverter.class, paramLabel = "MIN,MAX", description = "wait after a fault healed before the next one (default ${DEFAULT-VALUE})")
    List<Duration> gap;

    // ---- workload and checks ----
    @Option(names = "--rate", defaultValue = "20", description = "operations started per second at most (default ${DEFAULT-VALUE})")
    double rate;
    @Option(names = "--workers", defaultValue = "32", description = "operations in flight at most (default ${DEFAULT-VALUE})")
    int workers;
    @Option(names = "--race-share", defaultValue = "0.02", description = "share of operations that race a revocation with another change of one station at two Operators (default ${DEFAULT-VALUE})")
    double raceShare;
    @Option(names = "--warmup", defaultValue = "20s", converter = DurationConverter.class, description = "workload before the first fault (default ${DEFAULT-VALUE})")
    Duration warmup;
    @Option(names = "--quiet", defaultValue = "30s", converter = DurationConverter.class, description = "after the last fault healed and the workload stopped, wait this long before reading the replicas (default ${DEFAULT-VALUE})")
    Duration quiet;
    @Option(names = "--budget", defaultValue = "40m", converter = DurationConverter.class, description = "no fault starts later than this after the first; the rest are recorded as skipped (default ${DEFAULT-VALUE})")
    Duration budget;
    @Option(names = "--report-dir", defaultValue = "run/faults", description = "reports and history files (default ${DEFAULT-VALUE})")
    Path reportDir;
    @Option(names = "--name", defaultValue = "faults", description = "report file name, without extension (default ${DEFAULT-VALUE})")
    String name;

    @Override
    public Integer call() throws Exception {
        if (cleanup) {
            int removed = NamespaceNetwork.sweep(network.prefix, System.err::println);
            System.out.println("removed " + removed + " namespaces and links with prefix " + network.prefix);
            return 0;
        }
        if (!recheck.isEmpty()) {
            List<RunRecord> records = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (Path p : recheck) {
                records.add(HistoryFile.read(p));
                names.add(p.toString());
            }
            return report(FaultReport.judge(records, names));
        }
        long chosenSeed = seed != null ? seed : new SecureRandom().nextLong() & 0xffffffffL;
        List<String[]> chosenModes = modes();
        Map<FaultKind, Integer> counts = counts();
        FaultSchedule.Timing timing = new FaultSchedule.Timing(restartDelay.get(0), restartDelay.get(1), overDetection.get(0),
                overDetection.get(1), writeWindow.get(0), writeWindow.get(1), gap.get(0), gap.get(1)).with(longOutage, clockOffset);
        boolean clocks = counts.entrySet().stream().anyMatch(c -> c.getKey().clock() && c.getValue() > 0);
        if (clocks && !printSchedule && !java.nio.file.Files.isRegularFile(faketime)) {
            System.err.println("the schedule has clock faults, and there is no libfaketime at " + faketime
                    + ": apt-get install faketime, pass --faketime, or leave them out (--count clock-ahead=0,clock-behind=0,clock-step=0)");
            return FAILED;
        }
        if (printSchedule) {
            for (FaultPlan p : FaultSchedule.draw(chosenSeed, counts, eaReplicas + operators, failureDetection, timing)) {
                String targets = switch (p.kind()) {
                    case PARTITION_COORDINATOR, SEQUENCER_KILL -> "the coordinator of the moment";
                    default ->
                        p.targets().stream().map(i -> i < eaReplicas ? "ea-" + i : "operator-" + (i - eaReplicas)).toList().toString();
                };
                System.out.printf(Locale.ROOT, "%3d %-22s %-32s hold %5.1f s, then %4.1f s gap%n", p.index(), p.kind().label(),
                        targets, p.holdMs() / 1000.0, p.gapMs() / 1000.0);
            }
            return 0;
        }
        System.err.println("seed " + chosenSeed + " (pass --seed " + chosenSeed + " to draw the same schedule)");
        List<RunRecord> records = new ArrayList<>();
        List<String> histories = new ArrayList<>();
        boolean failed = false;
        boolean archivesRecorded = false;
        try (HostNetwork net = network.open(System.err::println)) {
            for (String[] mode : chosenModes) {
                ClusterSpec spec = new ClusterSpec(placement.projectDir.toAbsolutePath(),
                        placement.workDir.resolve(mode[0].toLowerCase(Locale.ROOT) + "-"
                                + mode[1].toLowerCase(Locale.ROOT)).toAbsolutePath(),
                        eaReplicas, operators, aas, mode[0], mode[1], placement.basePort,
                        placement.jgroupsBase(), "nistP256", appendFsync, failureDetection)
                        .withFaketime(clocks ? faketime.toAbsolutePath() : null);
                if (!archivesRecorded) {
                    // class-data archives make every (re)start of a service faster; recorded once per build
                    ClassDataRecording.record(spec, System.err::println);
                    archivesRecorded = true;
                }
                FaultRun.Config config = new FaultRun.Config(spec, chosenSeed, counts, timing, failureDetection, warmup, quiet,
                        new ConsistencyWorkload.Settings(rate, workers, raceShare, Duration.ofSeconds(15)), reportDir.toAbsolutePath(),
                        budget, fleet);
                try {
                    FaultRun.Result result = FaultRun.run(config, net, null, System.err::println);
                    records.add(result.record());
                    histories.add(result.history().toString());
                    // a report after every mode, so that a long matrix leaves results behind as it goes
                    FaultReportWriter.writeAll(FaultReport.judge(records, histories), reportDir, name);
                } catch (Exception e) {
                    failed = true;
                    System.err.println(spec.mode() + " failed: " + e);
                    e.printStackTrace(System.err);
                }
            }
        }
        if (records.isEmpty()) {
            return FAILED;
        }
        int code = report(FaultReport.judge(records, histories));
        return failed ? FAILED : code;
    }

    private int report(FaultReport report) throws java.io.IOException {
        System.out.println();
        System.out.print(FaultReportWriter.text(report));
        System.out.println("report written to " + FaultReportWriter.writeAll(report, reportDir, name));
        return report.violated() ? VIOLATED : 0;
    }

    private List<String[]> modes() {
        if (modes.isEmpty()) {
            List<String[]> out = new ArrayList<>();
            out.add(new String[]{order.toUpperCase(Locale.ROOT), propagation.toUpperCase(Locale.ROOT)});
            return out;
        }
        return modes(modes);
    }

    /** Modes as written on the command line: 'all' for the four, or ORDER+PROPAGATION each; {ORDER, PROPAGATION} each. */
    public static List<String[]> modes(List<String> written) {
        List<String[]> out = new ArrayList<>();
        for (String m : written) {
            if (m.equalsIgnoreCase("all")) {
                for (String o : List.of("TOTAL", "FIFO")) {
                    for (String p : List.of("SYNC", "ASYNC")) {
                        out.add(new String[]{o, p});
                    }
                }
                continue;
            }
            String[] parts = m.toUpperCase(Locale.ROOT).split("[+ ]+");
            if (parts.length != 2) {
                throw new IllegalArgumentException("a mode is ORDER+PROPAGATION, e.g. TOTAL+SYNC, not " + m);
            }
            out.add(parts);
        }
        return out;
    }

    Map<FaultKind, Integer> counts() {
        Map<FaultKind, Integer> counts = new EnumMap<>(FaultSchedule.matrixCounts());
        counts.put(FaultKind.REPLICA_KILL, replicaKills);
        counts.put(FaultKind.REDIS_KILL, redisKills);
        counts.put(FaultKind.PAUSE, pauses);
        counts.put(FaultKind.PARTITION_MINORITY, minorityPartitions);
        counts.put(FaultKind.PARTITION_COORDINATOR, coordinatorPartitions);
        counts.put(FaultKind.FULL_RESTART, fullRestarts);
        counts.put(FaultKind.SEQUENCER_KILL, sequencerKills);
        count.forEach((kind, n) -> counts.put(FaultKind.parse(kind), n));
        if (!only.isEmpty()) {
            List<FaultKind> kept = only.stream().map(FaultKind::parse).toList();
            counts.keySet().retainAll(kept);
        }
        return counts;
    }

    /** {@code 500ms}, {@code 2s}, {@code 1m}, or ISO-8601 ({@code PT2S}). */
    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.strip().toLowerCase(Locale.ROOT);
            if (v.startsWith("pt")) {
                return Duration.parse(value.strip());
            }
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            long n = Long.parseLong(v.substring(0, v.length() - 1));
            return switch (v.charAt(v.length() - 1)) {
                case 's' -> Duration.ofSeconds(n);
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                default -> throw new IllegalArgumentException("not a duration (500ms, 2s, 1m, PT2S): " + value);
            };
        }
    }
}
