package eu.vpki.experiments;

import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.testbed.ClusterSpec;
import eu.vpki.testbed.CpuLimitedNetwork;
import eu.vpki.testbed.HostNetwork;
import eu.vpki.testbed.LocalCluster;
import eu.vpki.faults.FaultRun;
import eu.vpki.station.load.LoadModel;
import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.load.PhaseResult;
import eu.vpki.station.load.Workload;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.report.ReportCharts;

import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The paper's centralised experiment (Figs. 3-5): one host per authority (RCA, DC, one EA, one
 * Operator, one AA; each in its own network namespace where the machine allows), every host limited
 * to the same number of cores, and for each limit an open-loop EC sweep then an open-loop AT sweep
 * at rising offered rates until the service saturates. Each EC step enrols stations registered just
 * before it (outside its timed window); the AT sweep uses the stations the EC sweeps enrolled. All
 * requests are built before each step's timed window, so the load client's own crypto does not
 * compete with the hosts during the measurement. The experiment stops by itself: each sweep gets an
 * equal share of the time budget and as many steps as fit in it.
 */
public final class CentralisedExperiment {
    /** Below this many enrolled stations the AT sweep enrols more first (untimed). */
    private static final int MIN_AT_STATIONS = 32;
    private static final String[] PALETTE = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"};

    /**
     * What to run.
     *
     * @param spec          the cluster: one EA replica, one Operator, one AA
     * @param cpusPerHost   the CPU limits to sweep (cores per host); ignored when the network cannot limit CPU
     * @param stepDuration  the timed window of each sweep step
     * @param workers       client threads of the open loop
     * @param budget        bound on the sweeps (the cluster's start and stop come on top)
     * @param atPermissions what the stations are registered for and ask in their AT requests
     */
    public record Config(ClusterSpec spec, List<Double> cpusPerHost, double ecStartRate, double atStartRate, double factor, int maxSteps,
                         Duration stepDuration, int workers, Duration budget, List<PsidSsp> atPermissions) {
        public Config {
            cpusPerHost = List.copyOf(cpusPerHost);
            atPermissions = List.copyOf(atPermissions);
            if (spec.eaReplicas() != 1 || spec.operatorReplicas() != 1 || spec.aas() != 1) {
                throw new IllegalArgumentException(
                        "the centralised experiment runs one EA, one Operator and one AA, not " + spec.describe());
            }
            if (ecStartRate <= 0 || atStartRate <= 0 || factor <= 1 || maxSteps < 1) {
                throw new IllegalArgumentException("start rates must be positive, the factor above 1 and at least one step");
            }
        }
    }

    private final Config config;
    private final HostNetwork network;
    private final HttpClient http;
    private final Consumer<String> log;
    private final Consumer<LoadRunner.Progress> progress;
    /** Where the report goes: the paths it names are relative to it. */
    private final ExperimentContext context;
    /** Every station registered so far, enrolled or not. */
    private final List<SimulatedStation> fleet = Collections.synchronizedList(new ArrayList<>());
    /** CPU per operation of every step (CpuMeter rows). */
    private final List<List<String>> cpuRows = new ArrayList<>();

    private CentralisedExperiment(Config config, ExperimentContext context) {
        this.config = config;
        this.network = context.network();
        this.http = context.http();
        this.log = context.log();
        this.progress = context.progress();
        this.context = context;
    }

    /**
     * Starts the cluster on {@code network} (a {@link CpuLimitedNetwork} for CPU limits; closed by the
     * caller, after this returns), runs the sweeps, stops the cluster and returns the report.
     */
    public static ExperimentReport run(Config config, ExperimentContext context) throws IOException {
        return new CentralisedExperiment(config, context).run();
    }

    private ExperimentReport run() throws IOException {
        Instant started = Instant.now();
        long deadline = System.nanoTime() + config.budget().toNanos();
        String loadBefore = Machine.loadAverage();
        CpuLimitedNetwork limited = network instanceof CpuLimitedNetwork l ? l : null;
        List<Double> sizes = limited != null ? config.cpusPerHost() : Collections.singletonList(null);
        List<Sweep> sweeps = new ArrayList<>();
        List<String> limits = new ArrayList<>();
        boolean complete = true;
        Map<String, String> settings = new LinkedHashMap<>();
        try (LocalCluster cluster = LocalCluster.start(config.spec(), network, log)) {
            LocalCluster.Endpoints e = cluster.endpoints();
            Workload workload = Workload.connect(e.dc(), e.rcaCertificate(), config.atPermissions(), e.eaReplicas(), e.aas(), true, http,
                    progress);
            StationSource stations = new StationSource(http, e, config.atPermissions(), "x");
            int sweepsLeft = 2 * sizes.size();
            for (Double cpus : sizes) {
                String cores = cpus == null ? "unlimited" : CpuLimitedNetwork.cores(cpus);
                String per = cpus == null ? "no CPU limit" : CpuLimitedNetwork.coresPhrase(cpus) + " per host";
                if (limited != null) {
                    limited.limit(cpus);
                }
                Map<String, String> setting = Map.of("cpusPerHost", cores);
                int steps = stepsFor(deadline, sweepsLeft);
                if (steps == 0) {
                    complete = false;
                    limits.add("The time budget (" + config.budget() + ") ran out before the sweeps at " + per + ".");
                    break;
                }
                log.accept("EC sweep, " + per + ": up to " + steps + " steps from " + config.ecStartRate() + " EC/s");
                List<PhaseResult> ec = Workload.sweep("EC " + cores + "c", config.ecStartRate(), config.factor(), steps,
                        config.stepDuration(), config.workers(), (name, count, model) -> {
                            List<SimulatedStation> fresh = stations.register((int) count);
                            fleet.addAll(fresh);
                            return metered(cluster, name, () -> workload.enrol(name, fresh, model));
                        });
                sweeps.add(new Sweep("EC, " + per, PhaseResult.ENROLMENT, setting, ec));
                sweepsLeft--;
                List<SimulatedStation> enrolled = enrolled(workload, stations);
                steps = stepsFor(deadline, sweepsLeft);
                if (steps == 0) {
                    complete = false;
                    limits.add("The time budget (" + config.budget() + ") ran out before the AT sweep at " + per + ".");
                    break;
                }
                log.accept("AT sweep, " + per + ": up to " + steps + " steps from " + config.atStartRate() + " AT/s over "
                        + enrolled.size() + " enrolled stations");
                List<PhaseResult> at = Workload.sweep("AT " + cores + "c", config.atStartRate(), config.factor(), steps,
                        config.stepDuration(), config.workers(),
                        (name, count, model) -> metered(cluster, name, () -> workload.fetch(name, enrolled, count, model)));
                sweeps.add(new Sweep("AT, " + per, PhaseResult.AUTHORIZATION, setting, at));
                sweepsLeft--;
            }
            if (limited != null) {
                limited.throttledSeconds().forEach((host, s) -> settings.put("throttled by the CPU limit: " + host,
                        String.format(Locale.ROOT, "%.1f s over the run", s)));
            }
            settings.put("logs", context.where(e.logDir()));
        }
        settings.put("machine", Machine.describe());
        settings.put("load average (1 min) before and after", loadBefore + " / " + Machine.loadAverage());
        settings.put("commit", FaultRun.commit(config.spec().projectDir()));
        settings.put("topology", "one host per authority: " + config.spec().describe() + "; " + network.describe());
        settings.put("CPU limits swept (cores per host)", limited == null
                ? "none (not available here)"
                : config.cpusPerHost().stream().map(CpuLimitedNetwork::cores).collect(Collectors.joining(", ")));
        settings.put("EC sweep",
                String.format(Locale.ROOT, "open loop from %s EC/s, x%s per step", ReportCharts.number(config.ecStartRate()),
                        ReportCharts.number(config.factor())));
        settings.put("AT sweep",
                String.format(Locale.ROOT, "open loop from %s AT/s, x%s per step", ReportCharts.number(config.atStartRate()),
                        ReportCharts.number(config.factor())));
        settings.put("steps", "at most " + config.maxSteps() + " of " + config.stepDuration() + " each, until achieved < 85 % of offered"
                + " or success < 50 %");
        settings.put("client workers", Integer.toString(config.workers()));
        settings.put("budget", config.budget().toString());
        settings.put("requests", "built before each step's timed window (ECIES, signatures); answers decrypted and verified inside it");
        settings.put("station and authority curve", "nistP256 / " + config.spec().authorityCurve());
        settings.put("service JVM options", "C1 only (-XX:TieredStopAtLevel=1) unless VPKI_SERVICE_JVM_OPTS says otherwise: "
                + String.valueOf(System.getenv("VPKI_SERVICE_JVM_OPTS")));
        limits.addAll(0, limitsOf(limited));
        return new ExperimentReport(PaperValues.CENTRALISED, "Centralised PKI: EC and AT latency versus throughput (paper Figs. 3-5)",
                started, Instant.now(), settings, limits, figures(sweeps), comparisons(sweeps), List.of(CpuMeter.table(cpuRows)), sweeps,
                complete);
    }

    /** Runs a phase between two CPU snapshots of the cluster's processes and keeps its per-operation costs as a row. */
    private PhaseResult metered(LocalCluster cluster, String name, java.util.function.Supplier<PhaseResult> phase) {
        Map<String, Long> before = CpuMeter.snapshot(cluster);
        PhaseResult r = phase.get();
        cpuRows.add(CpuMeter.row(name, r, CpuMeter.perOperation(before, CpuMeter.snapshot(cluster), r)));
        return r;
    }

    /** Steps that fit into an equal share of the time left for each sweep still to run (0: none). */
    private int stepsFor(long deadline, int sweepsLeft) {
        double left = (deadline - System.nanoTime()) / 1e9;
        // a step: its window, the 2 s the load runner waits for stragglers, and about half a window to build the requests
        double perStep = config.stepDuration().toNanos() / 1e9 * 1.5 + 2;
        return (int) Math.max(0, Math.min(config.maxSteps(), Math.floor(left / Math.max(1, sweepsLeft) / perStep)));
    }

    /** The stations enrolled so far; a few more enrolled first (closed loop, untimed) if the EC sweeps left too few. */
    private List<SimulatedStation> enrolled(Workload workload, StationSource stations) {
        List<SimulatedStation> enrolled;
        synchronized (fleet) {
            enrolled = fleet.stream().filter(SimulatedStation::enrolled).toList();
        }
        if (enrolled.size() < MIN_AT_STATIONS) {
            List<SimulatedStation> more = stations.register(MIN_AT_STATIONS);
            fleet.addAll(more);
            workload.enrol("enrolment for the AT sweep", more, new LoadModel.Closed(8, more.size(), Duration.ofMinutes(2)));
            synchronized (fleet) {
                enrolled = fleet.stream().filter(SimulatedStation::enrolled).toList();
            }
        }
        if (enrolled.isEmpty()) {
            throw new IllegalStateException("no station could be enrolled: the AT sweep has nothing to authorize");
        }
        return enrolled;
    }

    private static List<String> limitsOf(CpuLimitedNetwork limited) {
        List<String> limits = new ArrayList<>();
        int cores = Machine.cores();
        limits.add("Every host (RCA, DC, EA with its Redis, Operator with its Redis, AA) and the load client share this machine's " + cores
                + " cores: a per-host limit caps each host, but the hosts' limits add up to more than the machine, so under load the hosts"
                + " also wait for one another. The paper had one virtual machine per authority and its clients on others.");
        limits.add(limited != null
                ? "A cloud vCPU is one hardware thread; a core here is one of the " + cores + " the kernel schedules"
                        + " (cgroup CPU quota per host). Limits above " + cores
                        + " cores cannot be reproduced here: the paper's 4 and 8 vCPU"
                        + " curves have no counterpart on this machine."
                : "No CPU limit: this machine has no writable cgroup v1 cpu hierarchy (needs root); every host may use all " + cores
                        + " cores, so the paper's machine sizes are not reproduced.");
        limits.add("The services run our implementation, not the paper's; the comparison is of shape (flat latency, then a knee at"
                + " saturation) and order of magnitude, not of equal values.");
        limits.add("Requests are built before each step; reading and verifying the answers (ECIES, signature checks) costs the client"
                + " CPU inside the timed window, on the same cores as the hosts.");
        return limits;
    }

    private static List<ExperimentReport.Figure> figures(List<Sweep> sweeps) {
        String note = "Each of our curves is one CPU limit per host on this " + Machine.cores() + "-core machine; the grey lines are"
                + " the paper's values (dotted vertical: saturation throughput per machine size; dashed horizontal: latency before"
                + " saturation). Latency counts from each request's intended start (open loop: queueing shows).";
        List<ExperimentReport.Curve> at = curves(sweeps, PhaseResult.AUTHORIZATION);
        at.add(ExperimentReport.Curve.paperX("paper: saturation ~100 AT/s, 2 vCPU", 100));
        at.add(ExperimentReport.Curve.paperX("paper: ~240 AT/s, 4 vCPU", 240));
        at.add(ExperimentReport.Curve.paperX("paper: >300 AT/s, 8 vCPU", 300));
        at.add(ExperimentReport.Curve.paperY("paper: ~20 ms before saturation", 20));
        List<ExperimentReport.Curve> ec = curves(sweeps, PhaseResult.ENROLMENT);
        ec.add(ExperimentReport.Curve.paperY("paper: ~10 ms before saturation", 10));
        return List.of(
                new ExperimentReport.Figure("Figs. 3-5", "AT requests: latency versus achieved throughput", note,
                        "achieved throughput (AT/s)", "latency (ms, log scale)", true, at),
                new ExperimentReport.Figure("Figs. 3-5", "EC requests: latency versus achieved throughput", note
                        + " The paper gives no EC saturation figure for this setting.", "achieved throughput (EC/s)",
                        "latency (ms, log scale)",
                        true, ec));
    }

    /** p50 (solid) and p99 (dashed) of each sweep of {@code operation}, one colour per sweep. */
    private static List<ExperimentReport.Curve> curves(List<Sweep> sweeps, String operation) {
        List<ExperimentReport.Curve> curves = new ArrayList<>();
        int k = 0;
        for (Sweep s : sweeps) {
            if (!s.operation().equals(operation)) {
                continue;
            }
            String colour = PALETTE[k++ % PALETTE.length];
            List<PhaseResult> ok = s.steps().stream().filter(p -> p.succeeded() > 0).toList();
            curves.add(new ExperimentReport.Curve(s.label() + " p50", colour, "", ExperimentReport.Kind.MEASURED,
                    ok.stream().map(p -> new double[]{p.achievedRate(), p.latencyMillis(50)}).toList()));
            curves.add(new ExperimentReport.Curve(s.label() + " p99", colour, "7,4", ExperimentReport.Kind.MEASURED,
                    ok.stream().map(p -> new double[]{p.achievedRate(), p.latencyMillis(99)}).toList()));
        }
        return curves;
    }

    private static List<ExperimentReport.Comparison> comparisons(List<Sweep> sweeps) {
        List<Sweep> at = sweeps.stream().filter(s -> s.operation().equals(PhaseResult.AUTHORIZATION)).toList();
        List<Sweep> ec = sweeps.stream().filter(s -> s.operation().equals(PhaseResult.ENROLMENT)).toList();
        String saturation = at.isEmpty()
                ? "not measured"
                : at.stream().map(s -> String.format(Locale.ROOT, "%s%.0f AT/s (%s)",
                        s.saturated() ? "" : "at least ", s.peakRate(), s.label())).collect(Collectors.joining("; "));
        return List.of(
                new ExperimentReport.Comparison(PaperValues.AT_SATURATION_2_VCPU, saturation),
                new ExperimentReport.Comparison(PaperValues.AT_SATURATION_4_VCPU, "not reproducible on " + Machine.cores() + " cores"),
                new ExperimentReport.Comparison(PaperValues.AT_SATURATION_8_VCPU, "not reproducible on " + Machine.cores() + " cores"),
                new ExperimentReport.Comparison(PaperValues.AT_LATENCY, lowLoadLatency(at, "AT")),
                new ExperimentReport.Comparison(PaperValues.EC_LATENCY, lowLoadLatency(ec, "EC")));
    }

    private static String lowLoadLatency(List<Sweep> sweeps, String unit) {
        if (sweeps.isEmpty()) {
            return "not measured";
        }
        return sweeps.stream()
                .map(s -> s.lowestLoad().map(p -> String.format(Locale.ROOT, "p50 %.1f ms, p99 %.1f ms at %.0f %s/s offered (%s)",
                        p.latencyMillis(50), p.latencyMillis(99), p.offeredRate() == null ? 0 : p.offeredRate(), unit, s.label()))
                        .orElse("no success (" + s.label() + ")"))
                .collect(Collectors.joining("; "));
    }
}
