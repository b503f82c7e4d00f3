package eu.vpki.experiments;

import tools.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The capacity model ({@link CapacityModel}) fed by the experiments' reports (their JSON): the CPU per
 * operation of every phase by kind of process and on the busiest EA and AA process, with each phase's
 * rate and latency. It fits the EC demand per mode on the replicas runs, validates every prediction it
 * can against what the runs measured (saturation throughput and latency of the centralised sweeps,
 * the busiest host's demand at each replica count left out of its own fit, the geographic latencies),
 * and predicts the paper's 10-50 groups on the Terraform instance types. A report that is missing
 * leaves its part out and says so.
 */
public final class CapacityReport {
    /** The paper's group counts. */
    static final List<Integer> GROUPS = List.of(10, 20, 30, 40, 50);
    private static final String CPU_TABLE = "CPU per successful operation";
    private static final String PER_OP = " (CPU ms per operation)";

    private CapacityReport() {
    }

    /** One measured phase of a report with its CPU costs (ms per successful operation, by column of the CPU table). */
    record Phase(String experiment, String sweep, String operation, Map<String, String> setting, String name, double achieved,
                 double p50, boolean saturated, Map<String, Double> cpu) {
        double cpu(String column) {
            return cpu.getOrDefault(column, 0.0);
        }

        boolean ec() {
            return operation.equals("enrolment");
        }

        /** The EA host's CPU per operation on its busiest replica: its JVM and its redis-server. */
        double eaHost() {
            return cpu("busiest EA JVM") + cpu("busiest EA redis-server");
        }

        /** Operator host per operation, one Operator's JVM and redis-server. */
        double operatorHost() {
            int operators = Integer.parseInt(setting.getOrDefault("operators", "1"));
            return (cpu("Operator JVMs") + cpu("Operator redis-servers")) / operators;
        }
    }

    /** The phases of a report whose CPU row could be matched (by phase name, sweep label, or sweep label and a parenthesis). */
    static List<Phase> phases(JsonNode report) {
        Map<String, Map<String, Double>> rows = new HashMap<>();
        for (JsonNode table : report.get("tables")) {
            if (!table.get("title").asText().startsWith(CPU_TABLE)) {
                continue;
            }
            List<String> header = new ArrayList<>();
            table.get("header").forEach(h -> header.add(h.asText().replace(PER_OP, "")));
            for (JsonNode row : table.get("rows")) {
                Map<String, Double> values = new LinkedHashMap<>();
                for (int i = 2; i < header.size(); i++) {
                    values.put(header.get(i), parse(row.get(i).asText()));
                }
                rows.put(row.get(0).asText(), values);
            }
        }
        List<Phase> out = new ArrayList<>();
        String experiment = report.get("experiment").asText();
        for (JsonNode sweep : report.get("sweeps")) {
            String label = sweep.get("label").asText();
            Map<String, String> setting = new TreeMap<>();
            sweep.get("setting").properties().forEach(e -> setting.put(e.getKey(), e.getValue().asText()));
            for (JsonNode step : sweep.get("steps")) {
                String name = step.get("phase").asText();
                Map<String, Double> cpu = rows.get(name);
                if (cpu == null) {
                    cpu = rows.get(label);
                }
                if (cpu == null) {
                    cpu = rows.entrySet().stream().filter(e -> e.getKey().startsWith(label + " (")).map(Map.Entry::getValue).findFirst()
                            .orElse(null);
                }
                if (cpu != null && step.get("succeeded").asLong() > 0) {
                    out.add(new Phase(experiment, label, sweep.get("operation").asText(), setting, name,
                            step.get("achievedRate").asDouble(),
                            step.get("latencyMillis").get("p50").asDouble(), step.get("saturated").asBoolean(), cpu));
                }
            }
        }
        return out;
    }

    /** One replica host of a replicas run (the replica table of {@link CpuMeter#replicaTable}): its CPU ms per EC. */
    record ReplicaHost(String phase, int members, String name, boolean coordinator, double hostMs) {
        boolean ea() {
            return name.startsWith("ea-");
        }
    }

    /** The replica hosts of a report, empty for a report written before the replica table existed. */
    static List<ReplicaHost> replicaHosts(JsonNode report) {
        List<ReplicaHost> out = new ArrayList<>();
        for (JsonNode table : report.get("tables")) {
            if (!table.get("title").asText().startsWith(CpuMeter.REPLICA_TABLE)) {
                continue;
            }
            List<String> header = new ArrayList<>();
            table.get("header").forEach(h -> header.add(h.asText()));
            for (JsonNode row : table.get("rows")) {
                out.add(new ReplicaHost(row.get(header.indexOf("phase")).asText(), Integer.parseInt(row.get(header.indexOf("group members"))
                        .asText()), row.get(header.indexOf("replica")).asText(),
                        row.get(header.indexOf("coordinator")).asText().equals("yes"),
                        parse(row.get(header.indexOf("host (CPU ms per EC)")).asText())));
            }
        }
        return out;
    }

    /**
     * What one replicas run says about each kind of host, CPU ms per EC: an EA host and an Operator host that are not the
     * coordinator (mean over them), the coordinator's host and what it spent beyond its role's mean (NaN when unknown).
     */
    record Run(Phase phase, int eaReplicas, int members, double eaMs, double operatorMs, boolean coordinatorOnOperator,
               double coordinatorMs,
               double extraMs) {
        static Run of(Phase p, List<ReplicaHost> hosts) {
            int n = Integer.parseInt(p.setting().get("eaReplicas"));
            int members = n + Integer.parseInt(p.setting().getOrDefault("operators", "1"));
            List<ReplicaHost> mine = hosts.stream().filter(h -> h.phase().equals(p.sweep())).toList();
            if (mine.isEmpty()) {
                // an older report: the busiest EA host and the Operators' mean, the coordinator not known
                return new Run(p, n, members, p.eaHost(), p.operatorHost(), false, Double.NaN, Double.NaN);
            }
            double ea = mine.stream().filter(h -> h.ea() && !h.coordinator()).mapToDouble(ReplicaHost::hostMs).average().orElse(Double.NaN);
            double op = mine.stream().filter(h -> !h.ea() && !h.coordinator()).mapToDouble(ReplicaHost::hostMs).average()
                    .orElse(Double.NaN);
            Optional<ReplicaHost> c = mine.stream().filter(ReplicaHost::coordinator).findFirst();
            boolean onOperator = c.map(h -> !h.ea()).orElse(false);
            double coordinator = c.map(ReplicaHost::hostMs).orElse(Double.NaN);
            return new Run(p, n, members, ea, op, onOperator, coordinator, coordinator - (onOperator ? op : ea));
        }

        boolean coordinatorKnown() {
            return !Double.isNaN(extraMs);
        }
    }

    private static double parse(String cell) {
        try {
            return Double.parseDouble(cell.replace(",", ""));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /**
     * The model's report.
     *
     * @param reports      the experiments' JSON by experiment ({@link PaperValues#CENTRALISED}, ...), absent when not run
     * @param machineCores this machine's cores (all processes of a run share them)
     * @param speed        a cloud vCPU's work against one of this machine's cores (1: assumed equal)
     */
    public static ExperimentReport build(Map<String, JsonNode> reports, double machineCores, double speed, Map<String, String> sources) {
        Instant started = Instant.now();
        List<Phase> centralised = Optional.ofNullable(reports.get(PaperValues.CENTRALISED)).map(CapacityReport::phases).orElse(List.of());
        List<Phase> replicas = Optional.ofNullable(reports.get(PaperValues.DISTRIBUTED)).map(CapacityReport::phases).orElse(List.of());
        List<Phase> geo = Optional.ofNullable(reports.get(PaperValues.GEOGRAPHIC)).map(CapacityReport::phases).orElse(List.of());
        List<List<String>> validation = new ArrayList<>();
        List<List<String>> inputs = new ArrayList<>();
        List<String> limits = new ArrayList<>();

        validateCentralised(centralised, machineCores, validation);
        List<List<String>> terms = new ArrayList<>();
        List<ReplicaHost> hosts = Optional.ofNullable(reports.get(PaperValues.DISTRIBUTED)).map(CapacityReport::replicaHosts)
                .orElse(List.of());
        Map<String, CapacityModel.EcModel> ec = fitReplicas(replicas, hosts, machineCores, validation, inputs, terms);
        // AT demands: the centralised sweeps' busiest non-saturated step, else the replicas run's AT with one AA
        Optional<Phase> at = reference(centralised.stream().filter(p -> !p.ec()).toList())
                .or(() -> replicas.stream().filter(p -> !p.ec() && "1".equals(p.setting().get("aas"))).findFirst());
        double aaAt = at.map(p -> p.cpu("busiest AA JVM")).orElse(Double.NaN);
        double eaAt = at.map(p -> p.cpu("EA JVMs") + p.cpu("EA redis-servers")).orElse(Double.NaN);
        at.ifPresent(p -> inputs.add(CapacityModel.cells("AT", "AA host, CPU ms per AT", aaAt, p.experiment() + ": " + p.name())));
        at.ifPresent(p -> inputs
                .add(CapacityModel.cells("AT", "EA hosts together (validation), CPU ms per AT", eaAt, p.experiment() + ": " + p.name())));
        ec.forEach((mode, m) -> inputs.add(CapacityModel.cells("EC, " + mode, "Operator host (not the coordinator), CPU ms per EC (it"
                + " applies every EC)", m.operatorMs(), "replicas: mean over the runs")));
        double[] local = localLatency(geo, centralised);
        inputs.add(CapacityModel.cells("EC", "local latency before saturation (p50, ms)", local[0],
                local[2] > 0 ? "geo configuration 1" : "centralised, lowest p50 of an unsaturated step"));
        inputs.add(CapacityModel.cells("AT", "local latency before saturation (p50, ms)", local[1],
                local[2] > 0 ? "geo configuration 1" : "centralised, lowest p50 of an unsaturated step"));
        validateGeo(geo, validation);

        List<List<String>> prediction = new ArrayList<>();
        List<ExperimentReport.Curve> ecCurves = new ArrayList<>();
        List<ExperimentReport.Curve> atCurves = new ArrayList<>();
        String[] colours = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"};
        int colour = 0;
        CapacityModel.Instance c6i = CapacityModel.INSTANCES.get(0);
        CapacityModel.Instance t3 = CapacityModel.INSTANCES.get(3);
        for (Map.Entry<String, CapacityModel.EcModel> e : ec.entrySet()) {
            String mode = e.getKey();
            CapacityModel.EcModel model = e.getValue();
            List<double[]> ecPoints = new ArrayList<>();
            List<double[]> atPoints = new ArrayList<>();
            String[] m = mode.split(" \\+ ");
            for (int g : GROUPS) {
                CapacityModel.GroupPrediction terraform = CapacityModel.groups(g, model, aaAt, eaAt, c6i, t3, c6i, speed);
                CapacityModel.GroupPrediction allC6i = CapacityModel.groups(g, model, aaAt, eaAt, c6i, c6i, c6i, speed);
                double service = model.ea().at(g) / (c6i.cores() * speed);
                double wait = CapacityModel.replicationWaitMs(m[0], m[1], Region.US_WEST, Region.IRELAND,
                        List.of(Region.IRELAND, Region.US_WEST));
                // before saturation: at half the EA host's limit, M/M/1 queueing adds one service time
                prediction.add(CapacityModel.cells(mode, g, terraform.ecPerSecond(), allC6i.ecPerSecond(), allC6i.atPerSecond(),
                        local[0] + service, local[0] + service + wait, local[1] + aaAt / (c6i.cores() * speed), terraform.ecBottleneck(),
                        allC6i.ecBottleneck()));
                ecPoints.add(new double[]{g, allC6i.ecPerSecond()});
                atPoints.add(new double[]{g, allC6i.atPerSecond()});
            }
            ecCurves.add(new ExperimentReport.Curve("predicted EC/s, " + mode, colours[colour % colours.length], "",
                    ExperimentReport.Kind.MEASURED,
                    ecPoints));
            if (colour == 0) {
                atCurves.add(
                        new ExperimentReport.Curve("predicted AT/s (any mode)", colours[0], "", ExperimentReport.Kind.MEASURED, atPoints));
            }
            colour++;
        }
        ecCurves.add(new ExperimentReport.Curve("paper: ABCAST 10 groups, FIFO 10 and 20 groups", "#777777", "3,4",
                ExperimentReport.Kind.MEASURED,
                List.of(new double[]{10, 400}, new double[]{10, 500}, new double[]{20, 1000})));
        atCurves.add(new ExperimentReport.Curve("paper: about 1,000 to 5,000 AT/s", "#777777", "3,4", ExperimentReport.Kind.MEASURED,
                List.of(new double[]{10, 1000}, new double[]{50, 5000})));
        if (ec.isEmpty()) {
            limits.add("No replicas report: the EC demand per mode is not fitted and nothing is predicted for 10-50 groups.");
        }
        if (at.isEmpty()) {
            limits.add("No AT measurement: AT/s is not predicted.");
        }
        limits.add("A cloud vCPU is assumed to do " + CapacityModel.format(speed) + " times the work of one of this machine's cores (not"
                + " measured); t3.medium sustains its 20 % per vCPU baseline (AWS's figure) unless it runs on surplus credits.");
        limits.add("The CPU per operation includes what the services do meanwhile in the background (heartbeats, trust-list refreshes);"
                + " the model takes the measurement closest to saturation. Network bandwidth, Redis persistence (fsync) and the"
                + " load balancer are not modelled; inside a region the network adds nothing.");
        limits.add("Beyond the measured group sizes the EC demand is an extrapolation of the fitted terms (EA host: origin / n + per"
                + " replica; Operator host: a constant; TOTAL order's sequencer: fixed + per member x (N - 1) on the coordinator's host);"
                + " its error at the measured sizes is in the validation table (each run left out of its own fit). Our runs have 2"
                + " Operators beside n EA replicas (N = n + 2), the paper's groups one per EA (N = 2n).");
        if (ec.values().stream().anyMatch(m -> m.mode().startsWith("TOTAL") && m.sequencer().points() == 0)) {
            limits.add("The sequencer's cost was not measured in these reports (no per-replica CPU table): TOTAL order is predicted"
                    + " without it, so it scales like FIFO here, which the paper did not see.");
        }

        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("machine", Machine.describe());
        settings.put("machine cores (shared by every process of a run)", CapacityModel.format(machineCores));
        settings.put("vCPU speed against a core here", CapacityModel.format(speed));
        settings.put("instances", CapacityModel.INSTANCES.stream().map(i -> i.name() + " " + i.vcpus() + " vCPU x " + i.sustained())
                .reduce((a, b) -> a + ", " + b).orElse(""));
        settings.put("groups", "a group = an EA replica + an Operator replica + an AA (+ clients), as the paper's; N = 2 x groups members");
        settings.putAll(sources);

        List<ExperimentReport.Figure> figures = List.of(
                new ExperimentReport.Figure("Figs. 6-7", "Predicted EC/s at saturation against groups (all hosts c6i.large)",
                        "The model's extrapolation, not a measurement: the CPU per EC of each host was measured with 5-11 group members"
                                + " all sharing one " + CapacityModel.format(machineCores) + "-core machine, and 20-100 members on a"
                                + " machine each are extrapolated from it (TOTAL order falls where its sequencer becomes the busiest"
                                + " host). The paper's points in grey.",
                        "groups",
                        "EC/s", false, ecCurves),
                new ExperimentReport.Figure("Figs. 6-7", "Predicted AT/s at saturation against groups (AA and EA on c6i.large)",
                        "Linear in groups: each group brings its AA and its EA replica; the paper's line in grey.", "groups", "AT/s", false,
                        atCurves));
        List<ExperimentReport.Comparison> comparisons = comparisons(prediction);
        List<ExperimentReport.Table> tables = List.of(
                new ExperimentReport.Table("Model inputs (measured)", List.of("operation", "quantity", "value", "from"), inputs),
                new ExperimentReport.Table("Model terms fitted per mode, CPU ms per EC: EA host = origin / n + per replica; Operator host;"
                        + " the coordinator's host beyond its role = fixed + per member x (N - 1) (TOTAL order's sequencer)",
                        List.of("mode", "EA: origin (ms)", "EA: per replica (ms)", "Operator host (ms)", "coordinator",
                                "coordinator: fixed (ms)",
                                "coordinator: per member (ms)", "sequencer in the model", "runs"),
                        terms),
                new ExperimentReport.Table("Validation: each prediction beside the measurement", List.of("what", "setting", "predicted",
                        "measured", "error (%)"), validation),
                new ExperimentReport.Table("Prediction for the paper's 10-50 groups", List.of("mode", "groups",
                        "EC/s, Terraform defaults (EA c6i.large, Operator t3.medium)", "EC/s, every host c6i.large",
                        "AT/s (AA and EA c6i.large)",
                        "EC latency at half load, one region (ms)",
                        "EC latency at half load, groups in eu-west-1 and us-west-2, writer in us-west-2 (ms)",
                        "AT latency at half load (ms)", "EC bound, Terraform defaults", "EC bound, every host c6i.large"), prediction));
        return new ExperimentReport("capacity", "Capacity model: the measured CPU per operation extrapolated to the paper's 10-50 groups",
                started, Instant.now(), settings, limits, figures, comparisons, tables, List.of(), !ec.isEmpty() && at.isPresent());
    }

    /** The phase with the highest achieved rate that did not saturate (background weighs least there), else the first. */
    private static Optional<Phase> reference(List<Phase> phases) {
        return phases.stream().filter(p -> !p.saturated()).max(java.util.Comparator.comparingDouble(Phase::achieved))
                .or(() -> phases.stream().findFirst());
    }

    /** Saturation throughput and latency of each centralised sweep, predicted from its own CPU per operation. */
    private static void validateCentralised(List<Phase> phases, double machineCores, List<List<String>> rows) {
        Map<String, List<Phase>> bySweep = new LinkedHashMap<>();
        phases.forEach(p -> bySweep.computeIfAbsent(p.sweep(), k -> new ArrayList<>()).add(p));
        for (Map.Entry<String, List<Phase>> s : bySweep.entrySet()) {
            List<Phase> steps = s.getValue();
            Phase ref = reference(steps).orElseThrow();
            String cores = ref.setting().getOrDefault("cpusPerHost", "unlimited");
            double c = cores.equals("unlimited") ? machineCores : Double.parseDouble(cores);
            double host = ref.ec() ? Math.max(ref.eaHost(), ref.operatorHost()) : Math.max(ref.cpu("busiest AA JVM"), ref.eaHost());
            double hostLimit = CapacityModel.saturation(Math.min(c, machineCores), host);
            double machineLimit = CapacityModel.saturation(machineCores, ref.cpu("all processes"));
            double predicted = Math.min(hostLimit, machineLimit);
            String bound = hostLimit <= machineLimit ? "the busiest host's " + cores + " core(s)" : "the machine's cores (all processes)";
            boolean saturated = steps.get(steps.size() - 1).saturated();
            double peak = steps.stream().mapToDouble(Phase::achieved).max().orElse(0);
            rows.add(CapacityModel.cells("saturation, " + s.getKey(), "bound: " + bound + ", CPU from " + ref.name(), predicted,
                    saturated ? CapacityModel.format(peak) : "not saturated (>= " + CapacityModel.format(peak) + ")",
                    saturated ? CapacityModel.errorPercent(predicted, peak) : Double.NaN));
            double service = hostLimit <= machineLimit ? host / Math.min(c, machineCores) : ref.cpu("all processes") / machineCores;
            // the latency without queueing: the lowest p50 of the sweep's unsaturated steps (its first steps pay cold code and
            // idle connections, not queueing)
            double local = steps.stream().filter(p -> !p.saturated()).mapToDouble(Phase::p50).min().orElse(steps.get(0).p50());
            for (Phase p : steps) {
                if (p.saturated()) {
                    continue;
                }
                // M/M/1 at the bottleneck: the floor + S rho / (1 - rho)
                double rho = p.achieved() / predicted;
                double predictedLatency = rho >= 1 ? Double.POSITIVE_INFINITY : local + service * rho / (1 - rho);
                rows.add(CapacityModel.cells("p50 latency, " + p.name(), String.format(Locale.ROOT, "%.1f/s, utilisation %.0f %%",
                        p.achieved(), rho * 100), predictedLatency, p.p50(), CapacityModel.errorPercent(predictedLatency, p.p50())));
            }
        }
    }

    /**
     * The EC model per mode (EA host, Operator host, the sequencer in TOTAL order) from the replicas runs, and its validation:
     * each run's EA host, coordinator host and EC/s on this machine predicted from the other runs of its mode (leave one out:
     * the error of extrapolating in replica count), and the machine bound at each run's own CPU per EC.
     */
    private static Map<String, CapacityModel.EcModel> fitReplicas(List<Phase> phases, List<ReplicaHost> hosts, double machineCores,
                                                                  List<List<String>> rows, List<List<String>> inputs,
                                                                  List<List<String>> terms) {
        Map<String, List<Run>> byMode = new TreeMap<>();
        phases.stream().filter(Phase::ec).forEach(p -> byMode.computeIfAbsent(p.setting().get("mode"), k -> new ArrayList<>())
                .add(Run.of(p, hosts)));
        Map<String, CapacityModel.EcModel> out = new TreeMap<>();
        for (Map.Entry<String, List<Run>> e : byMode.entrySet()) {
            String mode = e.getKey();
            List<Run> runs = e.getValue();
            CapacityModel.EcModel model = model(mode, runs);
            out.put(mode, model);
            List<CapacityModel.RelayPoint> relay = relayPoints(runs);
            CapacityModel.Sequencer measured = CapacityModel.fitSequencer(relay);
            terms.add(CapacityModel.cells(mode, model.ea().origin(), model.ea().perReplica(), model.operatorMs(),
                    relay.isEmpty() ? "not measured" : (model.sequencerOnOperator() ? "Operator" : "EA"), measured.fixedMs(),
                    measured.perMemberMs(), model.sequencer().points() > 0
                            ? "yes"
                            : relay.isEmpty()
                                    ? "no (not measured)"
                                    : "no (FIFO: no sequencer; the coordinator's extra is a check)",
                    runs.size()));
            for (Run r : runs) {
                String at = mode + ", " + r.eaReplicas() + " EA replicas (" + r.members() + " members)";
                inputs.add(CapacityModel.cells("EC, " + mode,
                        "EA host (not the coordinator), CPU ms per EC, " + r.eaReplicas() + " EA replicas",
                        r.eaMs(), "replicas: " + r.phase().name()));
                if (r.coordinatorKnown()) {
                    inputs.add(CapacityModel.cells("EC, " + mode, "coordinator's host (" + (r.coordinatorOnOperator() ? "Operator" : "EA")
                            + ") minus its role's mean, CPU ms per EC, " + r.members() + " members", r.extraMs(),
                            "replicas: " + r.phase().name()));
                }
                List<Run> others = runs.stream().filter(q -> q != r).toList();
                if (others.isEmpty()) {
                    continue;
                }
                CapacityModel.EcModel without = model(mode, others);
                double ea = without.ea().at(r.eaReplicas());
                rows.add(CapacityModel.cells("EA host CPU per EC (ms), " + at, "fitted on the other runs of the mode", ea, r.eaMs(),
                        CapacityModel.errorPercent(ea, r.eaMs())));
                if (r.coordinatorKnown() && others.stream().anyMatch(Run::coordinatorKnown)) {
                    double role = r.coordinatorOnOperator() ? without.operatorMs() : ea;
                    double coordinator = role + without.sequencer().extraMs(r.members());
                    rows.add(CapacityModel.cells("coordinator host CPU per EC (ms), " + at, (without.sequencer().points() > 0
                            ? "its role's demand + the sequencer's fixed + per member x (N - 1), fitted on the other runs"
                            : "its role's demand (no sequencer in FIFO), fitted on the other runs"), coordinator, r.coordinatorMs(),
                            CapacityModel.errorPercent(coordinator, r.coordinatorMs())));
                }
                if (others.stream().mapToInt(Run::members).distinct().count() >= 2) {
                    // every process shares this machine's cores: EC/s = cores / (CPU per EC of all processes), a line in N
                    double[] all = CapacityModel
                            .line(others.stream().map(q -> new double[]{q.members(), q.phase().cpu("all processes")}).toList());
                    double predicted = CapacityModel.saturation(machineCores, all[0] + all[1] * r.members());
                    rows.add(CapacityModel.cells("EC/s on this machine, " + at, "closed loop; the cores full at the CPU per EC of all"
                            + " processes (a + b x N, fitted on the other runs)", predicted, r.phase().achieved(),
                            CapacityModel.errorPercent(predicted, r.phase().achieved())));
                }
                double bound = CapacityModel.saturation(machineCores, r.phase().cpu("all processes"));
                rows.add(CapacityModel.cells("EC/s at the run's own CPU per EC, " + at, "closed loop, " + r.phase().setting()
                        .getOrDefault("concurrency", "?") + " in flight; the machine's cores full (saturation check)", bound,
                        r.phase().achieved(),
                        CapacityModel.errorPercent(bound, r.phase().achieved())));
            }
        }
        return out;
    }

    /** The EC model of a mode from some of its runs: TOTAL order with its measured sequencer, FIFO without one. */
    private static CapacityModel.EcModel model(String mode, List<Run> runs) {
        CapacityModel.EcDemand ea = CapacityModel.fit(mode, runs.stream().filter(r -> !Double.isNaN(r.eaMs()))
                .map(r -> new CapacityModel.EcPoint(r.eaReplicas(), r.members(), r.eaMs())).toList());
        double operator = runs.stream().mapToDouble(Run::operatorMs).filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
        List<CapacityModel.RelayPoint> relay = relayPoints(runs);
        boolean total = mode.startsWith("TOTAL");
        CapacityModel.Sequencer sequencer = total ? CapacityModel.fitSequencer(relay) : CapacityModel.Sequencer.NONE;
        boolean onOperator = runs.stream().filter(Run::coordinatorKnown).filter(Run::coordinatorOnOperator).count() * 2 > runs.stream()
                .filter(Run::coordinatorKnown).count();
        return new CapacityModel.EcModel(mode, ea, operator, sequencer, onOperator);
    }

    private static List<CapacityModel.RelayPoint> relayPoints(List<Run> runs) {
        return runs.stream().filter(Run::coordinatorKnown).map(r -> new CapacityModel.RelayPoint(r.members(), r.extraMs())).toList();
    }

    /** {EC p50, AT p50, 1 if from the geo report's configuration 1 else 0}. */
    private static double[] localLatency(List<Phase> geo, List<Phase> centralised) {
        Optional<Phase> ec = geo.stream().filter(p -> p.ec() && "1".equals(p.setting().get("configuration"))).findFirst();
        Optional<Phase> at = geo.stream().filter(p -> !p.ec() && "1".equals(p.setting().get("configuration"))).findFirst();
        if (ec.isPresent() && at.isPresent()) {
            return new double[]{ec.get().p50(), at.get().p50(), 1};
        }
        double e = centralised.stream().filter(p -> p.ec() && !p.saturated()).mapToDouble(Phase::p50).min().orElse(Double.NaN);
        double a = centralised.stream().filter(p -> !p.ec() && !p.saturated()).mapToDouble(Phase::p50).min().orElse(Double.NaN);
        return new double[]{e, a, 0};
    }

    /** The geographic latencies: configuration 1's plus the round trips each configuration and mode waits for. */
    private static void validateGeo(List<Phase> geo, List<List<String>> rows) {
        Optional<Phase> ec1 = geo.stream().filter(p -> p.ec() && "1".equals(p.setting().get("configuration"))).findFirst();
        Optional<Phase> at1 = geo.stream().filter(p -> !p.ec() && "1".equals(p.setting().get("configuration"))).findFirst();
        if (ec1.isEmpty() || at1.isEmpty()) {
            return;
        }
        for (Phase p : geo) {
            String configuration = p.setting().get("configuration");
            if ("1".equals(configuration)) {
                continue;
            }
            double local = p.ec() ? ec1.get().p50() : at1.get().p50();
            double oneWay = Double.parseDouble(p.setting().getOrDefault("oneWayDelayMs", "0"));
            double wait = 2 * oneWay;
            if ("3".equals(configuration) && p.ec()) {
                String[] m = p.setting().get("mode").split(" \\+ ");
                Region ea = Region.parse(p.setting().get("eaRegion"));
                Region vehicles = Region.parse(p.setting().get("vehiclesRegion"));
                wait += CapacityModel.replicationWaitMs(m[0], m[1], vehicles, ea, List.of(ea, vehicles));
            }
            double predicted = local + wait;
            rows.add(CapacityModel.cells("p50 latency, " + p.name(), "configuration " + configuration + ", " + p.setting().get("mode")
                    + ": configuration 1's p50 + " + CapacityModel.format(wait) + " ms of round trips", predicted, p.p50(),
                    CapacityModel.errorPercent(predicted, p.p50())));
        }
    }

    /** The paper's values of Figs. 6-7 beside the model's prediction for the same group count and mode. */
    private static List<ExperimentReport.Comparison> comparisons(List<List<String>> prediction) {
        List<ExperimentReport.Comparison> out = new ArrayList<>();
        for (PaperValues.PaperValue v : PaperValues.of(PaperValues.DISTRIBUTED)) {
            String setting = v.setting();
            boolean atValue = v.quantity().startsWith("AT");
            java.util.function.Predicate<List<String>> row;
            if (atValue) {
                row = r -> r.get(1).equals("10") || r.get(1).equals("50");
            } else if (setting.startsWith("10 groups, ABCAST") || setting.equals("ABCAST")) {
                row = r -> r.get(0).startsWith("TOTAL") && (r.get(1).equals("10") || setting.equals("ABCAST") && r.get(1).equals("50"));
            } else if (setting.startsWith("10 groups, FIFO")) {
                row = r -> r.get(0).startsWith("FIFO") && r.get(1).equals("10");
            } else {
                row = r -> r.get(0).equals("FIFO + ASYNC") && r.get(1).equals("20");
            }
            String ours = prediction.stream().filter(row).map(r -> r.get(0) + ", " + r.get(1) + " groups: "
                    + (atValue ? r.get(4) + " AT/s" : r.get(3) + " EC/s (c6i.large), " + r.get(2) + " (Terraform defaults)"))
                    .reduce((a, b) -> a + "; " + b).orElse("not predicted (mode not measured)");
            out.add(new ExperimentReport.Comparison(v, "model: " + ours));
        }
        return out;
    }
}
