package eu.vpki.experiments.cli;

import eu.vpki.testbed.ClassDataRecording;
import eu.vpki.faults.cli.FaultsCommand;
import eu.vpki.testbed.cli.NetworkOptions;
import eu.vpki.testbed.cli.PlacementOptions;
import eu.vpki.station.cli.CommandSupport;
import eu.vpki.testbed.ClusterSpec;
import eu.vpki.testbed.CpuLimitedNetwork;
import eu.vpki.testbed.HostNetwork;
import eu.vpki.testbed.NamespaceNetwork;
import eu.vpki.experiments.CentralisedExperiment;
import eu.vpki.experiments.ExperimentContext;
import eu.vpki.experiments.ExperimentReport;
import eu.vpki.experiments.ExperimentReportWriter;
import eu.vpki.experiments.GeoExperiment;
import eu.vpki.experiments.Region;
import eu.vpki.experiments.ReplicasExperiment;
import eu.vpki.faults.ConsistencyWorkload;
import eu.vpki.station.load.LoadRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * {@code experiment}: the paper's experiments on this machine (docs/experiments.md), each a local
 * cluster on one host per service (network namespaces where possible), a CPU limit per host, open-loop
 * sweeps, and a report with the paper's values beside ours. Exit code 0 when the experiment ran to
 * its end, 2 when it was cut short (time budget) or failed.
 */
@Command(name = "experiment", mixinStandardHelpOptions = true, description = {
        "The paper's experiments reproduced on this machine (docs/experiments.md): a report (HTML and JSON)",
        "with charts shaped like the paper's figures and its values beside ours.", ""}, subcommands = {ExperimentCommand.Centralised.class,
                ExperimentCommand.Replicas.class, ExperimentCommand.Geo.class,
                ExperimentCommand.Model.class, ExperimentCommand.All.class})
public final class ExperimentCommand implements Runnable {
    static final int CUT_SHORT = 2;

    @Override
    public void run() {
        picocli.CommandLine.usage(this, System.out);
    }

    /** Where the experiment's cluster runs and where its report goes: shared by every experiment. */
    static final class Placement {
        @Mixin
        PlacementOptions cluster = new PlacementOptions(Path.of("run/experiments/cluster"));
        @Option(names = "--report-dir", defaultValue = "run/experiments", description = "where reports go (default ${DEFAULT-VALUE})")
        Path reportDir;
        /** CPU cgroups of the hosts use the same prefix as the namespaces. */
        @Mixin
        NetworkOptions hosts = new NetworkOptions("auto", "vpkix", "10.218.0.0/16");
        @Option(names = "--cleanup", description = "remove namespaces, links, cgroups and processes left by an earlier run with --net-prefix, then exit")
        boolean cleanup;

        /** A nistP256 cluster of this placement in {@code <work-dir>/<name>}: {@code eaReplicas} EA replicas, one Operator, one AA. */
        ClusterSpec spec(String name, int eaReplicas, String order, String propagation) {
            return new ClusterSpec(cluster.projectDir.toAbsolutePath(), cluster.workDir.resolve(name).toAbsolutePath(), eaReplicas, 1, 1,
                    order, propagation, cluster.basePort, cluster.jgroupsBase(), "nistP256");
        }

        /** The hosts: namespaces or loopback, each limited to {@code cpus} cores when given and this machine can. */
        HostNetwork open(Double cpus, Consumer<String> log) {
            HostNetwork net = hosts.open(log);
            if (cpus == null) {
                return net;
            }
            if (!CpuLimitedNetwork.available()) {
                log.accept("no CPU limit: no writable cgroup v1 cpu hierarchy here (needs root); the report says so");
                return net;
            }
            try {
                return CpuLimitedNetwork.wrap(net, hosts.prefix, cpus, log);
            } catch (RuntimeException e) {
                net.close();
                throw e;
            }
        }

        /**
         * Runs an experiment: the class-data archives recorded for {@code spec}'s build, the hosts opened
         * (each limited to {@code cpus} cores when given), the experiment, the hosts closed, the report written.
         */
        int run(ClusterSpec spec, Double cpus, String name, Experiment experiment) throws Exception {
            ClassDataRecording.record(spec, System.err::println);
            AtomicReference<LoadRunner.Progress> progress = new AtomicReference<>();
            ExperimentReport report;
            try (HostNetwork network = open(cpus, System.err::println)) {
                report = CommandSupport.withProgress(progress, () -> experiment.run(new ExperimentContext(network, CommandSupport.http(),
                        System.err::println, progress::set, reportDir)));
            }
            return write(report, reportDir, name);
        }

        /** Removes an earlier run's leftovers if {@code --cleanup} was given; whether it was. */
        boolean cleanedUp() {
            if (cleanup) {
                System.out.println("removed " + removeLeftovers() + " namespaces, links and cgroups with prefix " + hosts.prefix);
            }
            return cleanup;
        }

        int removeLeftovers() {
            int removed = NamespaceNetwork.available() ? NamespaceNetwork.sweep(hosts.prefix, System.err::println) : 0;
            return removed + (CpuLimitedNetwork.available() ? CpuLimitedNetwork.sweep(hosts.prefix, System.err::println) : 0);
        }
    }

    @Command(name = "centralised", mixinStandardHelpOptions = true, sortOptions = false, description = {
            "Paper Figs. 3-5: one host per authority (RCA, DC, EA, Operator, AA), each limited to --cpus cores;",
            "for each limit an open-loop EC sweep then an AT sweep at rising rates until saturation.",
            "Bounded by --budget (plus the cluster's start and stop). Exit code 0 when it ran to its end, 2 otherwise.", ""})
    static final class Centralised implements Callable<Integer> {
        @Mixin
        Placement placement;
        @Option(names = "--cpus", split = ",", defaultValue = "1,2", paramLabel = "CORES", description = "CPU limits per host to sweep, in cores, e.g. 0.5,1,2 (default ${DEFAULT-VALUE})")
        List<Double> cpus = new ArrayList<>();
        @Option(names = "--mode", defaultValue = "FIFO+ASYNC", description = "replication of the EA and Operator pair (default ${DEFAULT-VALUE})")
        String mode;
        @Option(names = "--ec-start-rate", defaultValue = "10", description = "first offered EC rate, per second (default ${DEFAULT-VALUE})")
        double ecStartRate;
        @Option(names = "--at-start-rate", defaultValue = "20", description = "first offered AT rate, per second (default ${DEFAULT-VALUE})")
        double atStartRate;
        @Option(names = "--factor", defaultValue = "1.5", description = "rate multiplier per step (default ${DEFAULT-VALUE})")
        double factor;
        @Option(names = "--steps", defaultValue = "12", description = "most steps per sweep (default ${DEFAULT-VALUE})")
        int steps;
        @Option(names = "--step-duration", defaultValue = "PT10S", description = "timed window of each step (default ${DEFAULT-VALUE})")
        Duration stepDuration;
        @Option(names = "--workers", defaultValue = "128", description = "client threads of the open loop (default ${DEFAULT-VALUE})")
        int workers;
        @Option(names = "--budget", defaultValue = "PT20M", description = "bound on all sweeps together (default ${DEFAULT-VALUE})")
        Duration budget;
        @Option(names = "--name", defaultValue = "centralised", description = "report file name, without extension (default ${DEFAULT-VALUE})")
        String name;

        @Override
        public Integer call() throws Exception {
            if (placement.cleanedUp()) {
                return 0;
            }
            String[] m = FaultsCommand.modes(List.of(mode)).get(0);
            ClusterSpec spec = placement.spec(name, 1, m[0], m[1]);
            CentralisedExperiment.Config config = new CentralisedExperiment.Config(spec, cpus, ecStartRate, atStartRate, factor, steps,
                    stepDuration, workers, budget, CommandSupport.AT_PERMISSIONS);
            return placement.run(spec, cpus.isEmpty() ? null : cpus.get(0), name,
                    context -> CentralisedExperiment.run(config, context));
        }
    }

    @Command(name = "replicas", mixinStandardHelpOptions = true, sortOptions = false, description = {
            "Paper Figs. 6-7 and the consistency side of the trade-off: for each mode and EA replica count, the",
            "fault harness's run without faults with a closed-loop EC load while its recorded workload runs: EC/s against",
            "replicas per mode, and the stale validations and read-your-writes violations its checks find under that load;",
            "AT/s against AAs in the first run. One cluster per run; no run starts after --budget.",
            "Exit code 0 when every run ran, 2 otherwise.", ""})
    static final class Replicas implements Callable<Integer> {
        @Mixin
        Placement placement;
        @Option(names = "--modes", split = ",", defaultValue = "all", paramLabel = "MODE", description = "'all' for the four modes, or a list like TOTAL+SYNC,FIFO+ASYNC (default ${DEFAULT-VALUE})")
        List<String> modes = new ArrayList<>();
        @Option(names = "--replicas", split = ",", defaultValue = "3,5,7,9", description = "EA replicas per run (default ${DEFAULT-VALUE})")
        List<Integer> replicas = new ArrayList<>();
        @Option(names = "--operators", defaultValue = "2", description = "Operator replicas in every run (default ${DEFAULT-VALUE})")
        int operators;
        @Option(names = "--aas", split = ",", defaultValue = "1,2,4", description = "AA counts to measure AT/s with (default ${DEFAULT-VALUE})")
        List<Integer> aas = new ArrayList<>();
        @Option(names = "--window", defaultValue = "PT20S", description = "closed-loop measurement per run (default ${DEFAULT-VALUE})")
        Duration window;
        @Option(names = "--concurrency", defaultValue = "32", description = "requests in flight of that measurement (default ${DEFAULT-VALUE})")
        int concurrency;
        @Option(names = "--stations", defaultValue = "4000", description = "requests per measurement at most (default ${DEFAULT-VALUE})")
        int stations;
        @Option(names = "--rate", defaultValue = "20", description = "recorded workload, operations per second (default ${DEFAULT-VALUE})")
        double rate;
        @Option(names = "--warmup", defaultValue = "PT5S", description = "recorded workload alone before the load (default ${DEFAULT-VALUE})")
        Duration warmup;
        @Option(names = "--quiet", defaultValue = "PT10S", description = "wait after the load before reading the replicas (default ${DEFAULT-VALUE})")
        Duration quiet;
        @Option(names = "--budget", defaultValue = "PT50M", description = "no run starts after this (default ${DEFAULT-VALUE})")
        Duration budget;
        @Option(names = "--name", defaultValue = "replicas", description = "report file name, without extension (default ${DEFAULT-VALUE})")
        String name;

        @Override
        public Integer call() throws Exception {
            if (placement.cleanedUp()) {
                return 0;
            }
            ClusterSpec template = placement.spec(name, 1, "FIFO", "ASYNC");
            Path reports = placement.reportDir.toAbsolutePath();
            ReplicasExperiment.Config config = new ReplicasExperiment.Config(template, FaultsCommand.modes(modes), replicas, operators, aas,
                    window, concurrency, stations, new ConsistencyWorkload.Settings(rate, 32, 0.02, Duration.ofSeconds(15)), warmup, quiet,
                    budget, reports.resolve(name + "-histories"), CommandSupport.AT_PERMISSIONS);
            return placement.run(template, null, name,
                    context -> ReplicasExperiment.run(config, context));
        }
    }

    @Command(name = "geo", mixinStandardHelpOptions = true, sortOptions = false, description = {
            "Paper Figs. 8-11: (1) everything in --ea-region; (2) the vehicles and AAs in --remote-region, each link",
            "to an EA replica through a delaying TCP proxy with the region table's one-way delay; (3) per --both-regions-modes,",
            "groups in both regions (EA replicas, an Operator and an AA in each, one replication group whose messages between",
            "the regions are delayed, each AA at its region's replicas), measured from the remote region's vehicles",
            "(docs/design-wan-emulation.md). An open-loop EC then AT phase per configuration. Exit code 0 when it ran.", ""})
    static final class Geo implements Callable<Integer> {
        @Mixin
        Placement placement;
        @Option(names = "--ea-region", defaultValue = "eu-west-1", description = "region of the EAs and Operators (default ${DEFAULT-VALUE})")
        String eaRegion;
        @Option(names = "--remote-region", defaultValue = "us-west-2", description = "region of the vehicles and AAs in the second configuration (default ${DEFAULT-VALUE})")
        String remoteRegion;
        @Option(names = "--replicas", defaultValue = "3", description = "EA replicas (default ${DEFAULT-VALUE})")
        int replicas;
        @Option(names = "--mode", defaultValue = "FIFO+ASYNC", description = "replication of the EA and Operator group (default ${DEFAULT-VALUE})")
        String mode;
        @Option(names = "--ec-rate", defaultValue = "5", description = "offered EC/s of each EC phase (default ${DEFAULT-VALUE})")
        double ecRate;
        @Option(names = "--at-rate", defaultValue = "10", description = "offered AT/s of each AT phase (default ${DEFAULT-VALUE})")
        double atRate;
        @Option(names = "--window", defaultValue = "PT20S", description = "timed window of each phase (default ${DEFAULT-VALUE})")
        Duration window;
        @Option(names = "--workers", defaultValue = "64", description = "client threads of the open loop (default ${DEFAULT-VALUE})")
        int workers;
        @Option(names = "--both-regions-modes", defaultValue = "FIFO+ASYNC,FIFO+SYNC", split = ",", description = {
                "modes of configuration 3, one cluster each: a list like TOTAL+SYNC,FIFO+ASYNC, 'all', or 'none'",
                "(default ${DEFAULT-VALUE})"})
        List<String> bothRegionsModes;
        @Option(names = "--regional-replicas", defaultValue = "1", description = "EA replicas per region in configuration 3 (default ${DEFAULT-VALUE})")
        int regionalReplicas;
        @Option(names = "--name", defaultValue = "geo", description = "report file name, without extension (default ${DEFAULT-VALUE})")
        String name;

        @Override
        public Integer call() throws Exception {
            if (placement.cleanedUp()) {
                return 0;
            }
            String[] m = FaultsCommand.modes(List.of(mode)).get(0);
            ClusterSpec spec = placement.spec(name, replicas, m[0], m[1]);
            List<String[]> third = bothRegionsModes.equals(List.of("none")) ? List.of() : FaultsCommand.modes(bothRegionsModes);
            GeoExperiment.Config config = new GeoExperiment.Config(spec, Region.parse(eaRegion), Region.parse(remoteRegion), ecRate, atRate,
                    window, workers, CommandSupport.AT_PERMISSIONS, third, regionalReplicas);
            return placement.run(spec, null, name, context -> GeoExperiment.run(config, context));
        }
    }

    @Command(name = "model", mixinStandardHelpOptions = true, sortOptions = false, description = {
            "The capacity model (docs/experiments.md): reads the experiments' JSON reports (NAME.json of centralised,",
            "replicas, geo; any may be missing), fits the CPU per operation, validates each prediction against the runs and",
            "predicts the paper's 10-50 groups on the Terraform instance types. Exit code 0 when it could predict.", ""})
    static final class Model implements Callable<Integer> {
        @Option(names = "--reports", defaultValue = "run/experiments", description = "folder of the experiments' reports (default ${DEFAULT-VALUE})")
        Path reports;
        @Option(names = "--centralised", defaultValue = "centralised", description = "its report's name (default ${DEFAULT-VALUE})")
        String centralised;
        @Option(names = "--replicas", defaultValue = "replicas", description = "its report's name (default ${DEFAULT-VALUE})")
        String replicas;
        @Option(names = "--geo", defaultValue = "geo", description = "its report's name (default ${DEFAULT-VALUE})")
        String geo;
        @Option(names = "--cores", description = "cores of the machine the runs shared (default: this machine's)")
        Double cores;
        @Option(names = "--speed", defaultValue = "1", description = "a cloud vCPU's work against one core of that machine (default ${DEFAULT-VALUE})")
        double speed;
        @Option(names = "--report-dir", defaultValue = "run/experiments", description = "where the report goes (default ${DEFAULT-VALUE})")
        Path reportDir;
        @Option(names = "--name", defaultValue = "capacity", description = "report file name, without extension (default ${DEFAULT-VALUE})")
        String name;

        @Override
        public Integer call() throws Exception {
            tools.jackson.databind.json.JsonMapper json = tools.jackson.databind.json.JsonMapper.builder().build();
            java.util.Map<String, tools.jackson.databind.JsonNode> found = new java.util.LinkedHashMap<>();
            java.util.Map<String, String> sources = new java.util.LinkedHashMap<>();
            java.util.Map<String, String> names = java.util.Map.of(eu.vpki.experiments.PaperValues.CENTRALISED, centralised,
                    eu.vpki.experiments.PaperValues.DISTRIBUTED, replicas, eu.vpki.experiments.PaperValues.GEOGRAPHIC, geo);
            for (var e : names.entrySet()) {
                Path file = reports.resolve(e.getValue() + ".json");
                if (java.nio.file.Files.isRegularFile(file)) {
                    found.put(e.getKey(), json.readTree(java.nio.file.Files.readString(file)));
                    sources.put("input: " + e.getKey(), ExperimentContext.relative(reportDir, file));
                } else {
                    sources.put("input: " + e.getKey(), "none (" + ExperimentContext.relative(reportDir, file) + " not found)");
                }
            }
            double machine = cores != null ? cores : Runtime.getRuntime().availableProcessors();
            ExperimentReport report = eu.vpki.experiments.CapacityReport.build(found, machine, speed, sources);
            return write(report, reportDir, name);
        }
    }

    @Command(name = "all", mixinStandardHelpOptions = true, description = {
            "Every experiment with its defaults, one after the other (centralised, replicas, geo), each with its own report,",
            "then the capacity model over their reports.",
            "Exit code 0 when every one ran to its end.", ""})
    static final class All implements Callable<Integer> {
        @Mixin
        Placement placement;

        @Override
        public Integer call() {
            List<String> shared = new ArrayList<>(List.of("--project-dir", placement.cluster.projectDir.toString(), "--work-dir",
                    placement.cluster.workDir.toString(), "--report-dir", placement.reportDir.toString(), "--base-port",
                    Integer.toString(placement.cluster.basePort), "--jgroups-base-port", Integer.toString(placement.cluster.jgroupsBase()),
                    "--network",
                    placement.hosts.network, "--net-prefix", placement.hosts.prefix, "--subnet", placement.hosts.subnet));
            if (placement.cleanup) {
                shared.add("--cleanup");
            }
            int worst = 0;
            for (String experiment : List.of("centralised", "replicas", "geo")) {
                List<String> args = new ArrayList<>(List.of(experiment));
                args.addAll(shared);
                worst = Math.max(worst, new picocli.CommandLine(new ExperimentCommand()).execute(args.toArray(String[]::new)));
            }
            if (!placement.cleanup) {
                worst = Math.max(worst, new picocli.CommandLine(new ExperimentCommand()).execute("model", "--reports",
                        placement.reportDir.toString(), "--report-dir", placement.reportDir.toString()));
            }
            return worst;
        }
    }

    /** One experiment on opened hosts. */
    @FunctionalInterface
    interface Experiment {
        ExperimentReport run(ExperimentContext context) throws Exception;
    }

    static int write(ExperimentReport report, Path dir, String name) throws java.io.IOException {
        System.out.println();
        System.out.print(ExperimentReportWriter.text(report));
        List<Path> files = ExperimentReportWriter.writeAll(report, dir, name);
        System.out.println("report written to " + files.get(0) + " and " + files.get(1) + " (and one report per sweep beside them)");
        return report.complete() ? 0 : CUT_SHORT;
    }
}
