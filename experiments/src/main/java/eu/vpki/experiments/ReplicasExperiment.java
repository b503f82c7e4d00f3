package eu.vpki.experiments;

import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.testbed.ClusterSpec;
import eu.vpki.testbed.HostNetwork;
import eu.vpki.testbed.LocalCluster;
import eu.vpki.faults.Check;
import eu.vpki.faults.CheckResult;
import eu.vpki.faults.ConsistencyWorkload;
import eu.vpki.faults.FaultReport;
import eu.vpki.faults.FaultRun;
import eu.vpki.faults.FaultSchedule;
import eu.vpki.faults.GroupViews;
import eu.vpki.station.load.LoadModel;
import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.load.PhaseResult;
import eu.vpki.station.load.Workload;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.report.ReportCharts;

import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The paper's distributed experiment (Figs. 6-7) on one machine, and the consistency side of its
 * trade-off: for each consistency mode and each EA replica count, the fault harness's run without
 * faults ({@link FaultRun}: the cluster, the recorded workload, the checks) with, while its workload
 * runs, a closed-loop EC load spread over every EA replica: EC/s against replicas per mode, and the
 * anomalies (stale validations after a revocation, read-your-writes violations) the checks find in
 * the history recorded under that load. In the first run, AT/s is measured against the number of
 * AAs used (the cluster has the most AAs asked for; the load goes to the first k of them). Every run
 * is its own cluster; the experiment stops starting runs when its time budget is spent.
 */
public final class ReplicasExperiment {
    private static final String[] MODE_COLOURS = {"#d62728", "#ff7f0e", "#1f77b4", "#2ca02c"};

    /**
     * What to run.
     *
     * @param template      project, work directory, ports (replica counts and mode are set per run)
     * @param modes         each {ORDER, PROPAGATION}
     * @param replicaCounts EA replicas per run, e.g. 3, 5, 7, 9
     * @param operators     Operator replicas in every run (the read-your-writes check reads at another Operator than the writer's)
     * @param aaCounts      AAs to measure AT/s with (in the first run)
     * @param window        the closed-loop measurement of each run
     * @param concurrency   requests in flight of that measurement
     * @param stations      stations registered (and enrolled, for ATs) per measurement, at most
     * @param workload      the recorded workload that runs meanwhile
     * @param budget        no run starts after this
     */
    public record Config(ClusterSpec template, List<String[]> modes, List<Integer> replicaCounts, int operators, List<Integer> aaCounts,
                         Duration window, int concurrency, int stations, ConsistencyWorkload.Settings workload, Duration warmup,
                         Duration quiet, Duration budget, Path outDir, List<PsidSsp> atPermissions) {
        public Config {
            modes = List.copyOf(modes);
            replicaCounts = List.copyOf(replicaCounts);
            aaCounts = List.copyOf(aaCounts);
            atPermissions = List.copyOf(atPermissions);
            if (modes.isEmpty() || replicaCounts.isEmpty() || aaCounts.isEmpty()) {
                throw new IllegalArgumentException("at least one mode, one replica count and one AA count");
            }
            if (replicaCounts.stream().anyMatch(n -> n < 1 || n + operators < 3)) {
                throw new IllegalArgumentException("every run needs at least one EA replica and a group of at least 3");
            }
        }
    }

    /** One run: a mode and replica count, its EC measurement and what the checks found. */
    private record Run(String mode, int replicas, PhaseResult ec, CheckResult stale, CheckResult readYourWrites, String history) {
    }

    private final Config config;
    private final HostNetwork network;
    private final HttpClient http;
    private final Consumer<String> log;
    private final Consumer<LoadRunner.Progress> progress;
    /** Where the report goes: the paths it names are relative to it. */
    private final ExperimentContext context;
    /** CPU per operation of every measurement (CpuMeter rows). */
    private final List<List<String>> cpuRows = new ArrayList<>();
    /** CPU per EC of each replica host of every run, the JGroups coordinator (TOTAL order's sequencer) marked. */
    private final List<List<String>> replicaRows = new ArrayList<>();

    private ReplicasExperiment(Config config, ExperimentContext context) {
        this.config = config;
        this.network = context.network();
        this.http = context.http();
        this.log = context.log();
        this.progress = context.progress();
        this.context = context;
    }

    /** Runs every mode and replica count on {@code network} (closed by the caller), and returns the report. */
    public static ExperimentReport run(Config config, ExperimentContext context) {
        return new ReplicasExperiment(config, context).run();
    }

    private ExperimentReport run() {
        Instant started = Instant.now();
        long deadline = System.nanoTime() + config.budget().toNanos();
        String loadBefore = Machine.loadAverage();
        List<Run> runs = new ArrayList<>();
        List<PhaseResult> atByAas = new ArrayList<>();
        List<String> limits = new ArrayList<>();
        boolean complete = true;
        int maxAas = config.aaCounts().stream().mapToInt(Integer::intValue).max().orElse(1);
        for (String[] mode : config.modes()) {
            for (int n : config.replicaCounts()) {
                String label = mode[0] + " + " + mode[1] + ", " + n + " EA replicas";
                if (System.nanoTime() > deadline) {
                    complete = false;
                    limits.add("Not run, the time budget (" + config.budget() + ") was spent: " + label + ".");
                    continue;
                }
                boolean first = runs.isEmpty() && atByAas.isEmpty();
                ClusterSpec t = config.template();
                ClusterSpec spec = new ClusterSpec(t.projectDir(), t.workDir().resolve(mode[0].toLowerCase(Locale.ROOT) + "-"
                        + mode[1].toLowerCase(Locale.ROOT) + "-" + n), n, config.operators(), first ? maxAas : 1, mode[0], mode[1],
                        t.basePort(), t.jgroupsBasePort(), t.authorityCurve(), t.appendFsync(), t.failureDetection());
                try {
                    runs.add(runOne(spec, label, first ? atByAas : null));
                } catch (Exception e) {
                    complete = false;
                    limits.add("Failed: " + label + ": " + e);
                    log.accept(label + " failed: " + e);
                }
            }
        }
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("machine", Machine.describe());
        settings.put("load average (1 min) before and after", loadBefore + " / " + Machine.loadAverage());
        settings.put("commit", FaultRun.commit(config.template().projectDir()));
        settings.put("topology", "one host per service: RCA, DC, n EA replicas and " + config.operators() + " Operator replicas (one"
                + " JGroups group, each with its own redis-server), AAs; " + network.describe());
        settings.put("modes", config.modes().stream().map(m -> m[0] + "+" + m[1]).collect(Collectors.joining(", ")));
        settings.put("EA replicas per run", config.replicaCounts().toString());
        settings.put("AAs (first run)", config.aaCounts().toString());
        settings.put("EC and AT measurement", "closed loop, " + config.concurrency() + " in flight for at most " + config.window()
                + " or " + config.stations() + " requests; requests built before the window; EC spread round-robin over every EA replica");
        settings.put("recorded workload (consistency checks)", config.workload().toString() + ", warm-up " + config.warmup() + ", quiet "
                + config.quiet());
        settings.put("budget", config.budget().toString());
        settings.put("histories", context.where(config.outDir()));
        limits.addAll(0, List.of(
                "Every replica, AA and the load client share this machine's " + Machine.cores() + " cores: adding a replica adds its CPU"
                        + " demand and no CPU, while the paper added a machine per replica. Our EC/s against replicas shows the cost"
                        + " of each added replica, not the paper's scaling.",
                "AT/s against AAs cannot grow here: AA scaling needs cores per AA. The paper's line (about 100 AT/s per group, close to"
                        + " linear) is drawn for reference.",
                "The paper's x axis is groups of AA + EA + Operator + client (10 to 50); ours is EA replicas (a few), so its EC values"
                        + " are in the table, not on the chart.",
                "The anomalies are what the fault harness's checks find in a run without faults, under the closed-loop load: the"
                        + " recorded workload (revocations racing validations, writes read back at another Operator) runs at "
                        + ReportCharts.number(config.workload().rate()) + " operations/s meanwhile."));
        return new ExperimentReport(PaperValues.DISTRIBUTED, "Distributed PKI: EC/s against replicas per mode, AT/s against AAs,"
                + " consistency anomalies (paper Figs. 6-7)", started, Instant.now(), settings, limits, figures(runs, atByAas),
                comparisons(runs, atByAas), List.of(anomalies(runs), CpuMeter.table(cpuRows), CpuMeter.replicaTable(replicaRows)),
                sweeps(runs, atByAas), complete);
    }

    private Run runOne(ClusterSpec spec, String label, List<PhaseResult> atByAas) throws Exception {
        log.accept(label + ": starting");
        FaultSchedule.Timing timing = new FaultSchedule.Timing(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(1),
                Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(2));
        // no faults; each replica count's history in a folder of its own (the file is named after the mode and seed only)
        FaultRun.Config fc = new FaultRun.Config(spec, 0, Map.of(), timing, Duration.ofSeconds(20), config.warmup(), config.quiet(),
                config.workload(), config.outDir().resolve(spec.eaReplicas() + "-ea-replicas"), config.budget());
        PhaseResult[] ec = new PhaseResult[1];
        FaultRun.Result result = FaultRun.run(fc, network, cluster -> {
            LocalCluster.Endpoints e = cluster.endpoints();
            List<SimulatedStation> fresh = new StationSource(http, e, config.atPermissions(), "r").register(config.stations());
            Workload w = Workload.connect(e.dc(), e.rcaCertificate(), config.atPermissions(), e.eaReplicas(), List.of(e.aas().get(0)), true,
                    http, progress);
            log.accept(label + ": EC closed loop, " + config.concurrency() + " in flight");
            Map<String, Long> before = CpuMeter.snapshot(cluster);
            ec[0] = w.enrol("EC " + label, fresh, new LoadModel.Closed(config.concurrency(), fresh.size(), config.window()));
            Map<String, Double> perProcess = CpuMeter.perOperation(before, CpuMeter.snapshot(cluster), ec[0]);
            cpuRows.add(CpuMeter.row("EC, " + label, ec[0], perProcess));
            String coordinator = new GroupViews(cluster.replicas(), http).coordinator().orElse("");
            replicaRows.addAll(CpuMeter.replicaRows("EC, " + label, spec.order() + " + " + spec.propagation(), spec.eaReplicas(),
                    spec.eaReplicas() + spec.operatorReplicas(), coordinator, ec[0], perProcess));
            if (atByAas != null) {
                List<SimulatedStation> enrolled = fresh.stream().filter(SimulatedStation::enrolled).toList();
                if (enrolled.isEmpty()) {
                    throw new IllegalStateException("no station enrolled: no AT can be asked for");
                }
                for (int k : config.aaCounts()) {
                    Workload at = Workload.connect(e.dc(), e.rcaCertificate(), config.atPermissions(), e.eaReplicas(),
                            e.aas().subList(0, k),
                            true, http, progress);
                    log.accept(label + ": AT closed loop over " + k + " AAs");
                    Map<String, Long> atBefore = CpuMeter.snapshot(cluster);
                    PhaseResult r = at.fetch("AT, " + k + " AAs", enrolled, config.stations(),
                            new LoadModel.Closed(config.concurrency(), config.stations(), config.window()));
                    cpuRows.add(CpuMeter.row("AT, " + k + " AAs (" + label + ")", r,
                            CpuMeter.perOperation(atBefore, CpuMeter.snapshot(cluster), r)));
                    atByAas.add(r);
                }
            }
        }, null, log);
        FaultReport report = FaultReport.judge(List.of(result.record()), List.of(result.history().toString()));
        Map<Check, CheckResult> checks = report.runs().get(0).results();
        return new Run(spec.order() + " + " + spec.propagation(), spec.eaReplicas(), ec[0], checks.get(Check.STALE_VALIDATIONS),
                checks.get(Check.READ_YOUR_WRITES), context.where(result.history()));
    }

    private List<ExperimentReport.Figure> figures(List<Run> runs, List<PhaseResult> atByAas) {
        List<ExperimentReport.Curve> ec = new ArrayList<>();
        List<ExperimentReport.Curve> anomalies = new ArrayList<>();
        int k = 0;
        for (String mode : modes(runs)) {
            String colour = MODE_COLOURS[k++ % MODE_COLOURS.length];
            List<Run> of = runs.stream().filter(r -> r.mode().equals(mode)).toList();
            ec.add(new ExperimentReport.Curve(mode, colour, "", ExperimentReport.Kind.MEASURED,
                    of.stream().map(r -> new double[]{r.replicas(), r.ec().achievedRate()}).toList()));
            anomalies.add(new ExperimentReport.Curve(mode + ": stale validations", colour, "", ExperimentReport.Kind.MEASURED,
                    of.stream().map(r -> new double[]{r.replicas(), r.stale().violations()}).toList()));
            anomalies.add(new ExperimentReport.Curve(mode + ": read-your-writes", colour, "7,4", ExperimentReport.Kind.MEASURED,
                    of.stream().map(r -> new double[]{r.replicas(), r.readYourWrites().violations()}).toList()));
        }
        List<ExperimentReport.Curve> at = new ArrayList<>();
        at.add(new ExperimentReport.Curve("ours", "#ff7f0e", "", ExperimentReport.Kind.MEASURED,
                IntStream.range(0, atByAas.size()).mapToObj(i -> new double[]{config.aaCounts().get(i), atByAas.get(i).achievedRate()})
                        .toList()));
        at.add(new ExperimentReport.Curve("paper: about 100 AT/s per group, close to linear", "#777777", "3,4",
                ExperimentReport.Kind.MEASURED,
                config.aaCounts().stream().map(n -> new double[]{n, 100.0 * n}).toList()));
        String shared = "All on this " + Machine.cores() + "-core machine: every added replica or AA shares the same cores.";
        return List.of(
                new ExperimentReport.Figure("Figs. 6-7", "EC throughput against EA replicas, per mode", shared
                        + " The paper's EC values (about 400-1,000 EC/s at 10-20 groups) are in the table.", "EA replicas",
                        "achieved EC/s (closed loop)", false, ec),
                new ExperimentReport.Figure("Figs. 6-7", "AT throughput against AAs", shared + " AA scaling needs cores per AA: the"
                        + " paper's line cannot be followed here.", "AAs", "achieved AT/s (closed loop)", false, at),
                new ExperimentReport.Figure("beyond the paper", "Consistency anomalies under load, per mode", "Violations the fault"
                        + " harness's checks find in each run's recorded history (no faults injected); 0 is the promise of the SYNC"
                        + " modes for read-your-writes (docs/replication.md).", "EA replicas", "violations", false, anomalies));
    }

    private static List<String> modes(List<Run> runs) {
        return runs.stream().map(Run::mode).distinct().toList();
    }

    private List<ExperimentReport.Comparison> comparisons(List<Run> runs, List<PhaseResult> atByAas) {
        String at = atByAas.isEmpty()
                ? "not measured"
                : IntStream.range(0, atByAas.size()).mapToObj(i -> String.format(Locale.ROOT,
                        "%.0f AT/s with %d AAs", atByAas.get(i).achievedRate(), config.aaCounts().get(i)))
                        .collect(Collectors.joining("; "));
        List<PaperValues.PaperValue> paper = PaperValues.of(PaperValues.DISTRIBUTED);
        List<ExperimentReport.Comparison> out = new ArrayList<>();
        out.add(new ExperimentReport.Comparison(paper.get(0), at + " (on " + Machine.cores() + " cores)"));
        out.add(new ExperimentReport.Comparison(paper.get(1), ecOf(runs, "TOTAL")));
        out.add(new ExperimentReport.Comparison(paper.get(2), ecOf(runs, "FIFO")));
        out.add(new ExperimentReport.Comparison(paper.get(3), ecOf(runs, "FIFO + ASYNC")));
        out.add(new ExperimentReport.Comparison(paper.get(4), trend(runs, "TOTAL")));
        return out;
    }

    /** EC/s of the runs whose mode starts with {@code prefix}, by replica count. */
    private static String ecOf(List<Run> runs, String prefix) {
        List<Run> of = runs.stream().filter(r -> r.mode().startsWith(prefix)).toList();
        return of.isEmpty()
                ? "not measured"
                : of.stream().map(r -> String.format(Locale.ROOT, "%s, %d replicas: %.0f EC/s", r.mode(),
                        r.replicas(), r.ec().achievedRate())).collect(Collectors.joining("; "));
    }

    /** How EC/s changed from the fewest to the most replicas, per mode starting with {@code prefix}. */
    private static String trend(List<Run> runs, String prefix) {
        List<String> parts = new ArrayList<>();
        for (String mode : modes(runs)) {
            if (!mode.startsWith(prefix)) {
                continue;
            }
            List<Run> of = runs.stream().filter(r -> r.mode().equals(mode)).toList();
            Run lo = of.get(0);
            Run hi = of.get(of.size() - 1);
            parts.add(String.format(Locale.ROOT, "%s: %.0f EC/s at %d replicas, %.0f at %d", mode, lo.ec().achievedRate(), lo.replicas(),
                    hi.ec().achievedRate(), hi.replicas()));
        }
        return parts.isEmpty() ? "not measured" : String.join("; ", parts);
    }

    private static ExperimentReport.Table anomalies(List<Run> runs) {
        List<List<String>> rows = new ArrayList<>();
        for (Run r : runs) {
            rows.add(List.of(r.mode(), Integer.toString(r.replicas()), String.format(Locale.ROOT, "%.0f", r.ec().achievedRate()),
                    r.stale().violations() + " " + figures(r.stale()), r.readYourWrites().violations() + " " + figures(r.readYourWrites()),
                    r.history()));
        }
        return new ExperimentReport.Table("Consistency anomalies under load (fault harness checks, no faults injected)",
                List.of("mode", "EA replicas", "EC/s", "stale validations", "read-your-writes violations",
                        "history, relative to this report (./vpki faults --recheck)"),
                rows);
    }

    private static String figures(CheckResult c) {
        String f = c.figures().entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
        return (f.isEmpty() ? "" : "(" + f + ")") + (c.note().isEmpty() ? "" : " " + c.note());
    }

    private List<Sweep> sweeps(List<Run> runs, List<PhaseResult> atByAas) {
        List<Sweep> out = new ArrayList<>();
        for (Run r : runs) {
            out.add(new Sweep("EC, " + r.mode() + ", " + r.replicas() + " EA replicas", PhaseResult.ENROLMENT,
                    Map.of("mode", r.mode(), "eaReplicas", Integer.toString(r.replicas()), "operators",
                            Integer.toString(config.operators()),
                            "concurrency", Integer.toString(config.concurrency())),
                    List.of(r.ec())));
        }
        for (int i = 0; i < atByAas.size(); i++) {
            out.add(new Sweep("AT, " + config.aaCounts().get(i) + " AAs", PhaseResult.AUTHORIZATION,
                    Map.of("aas", Integer.toString(config.aaCounts().get(i))), List.of(atByAas.get(i))));
        }
        return out;
    }
}
