package eu.vpki.experiments;

import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.testbed.ClusterSpec;
import eu.vpki.testbed.DelayingProxy;
import eu.vpki.testbed.HostNetwork;
import eu.vpki.testbed.LocalCluster;
import eu.vpki.faults.FaultRun;
import eu.vpki.station.load.LoadModel;
import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.load.PhaseResult;
import eu.vpki.station.load.Workload;
import eu.vpki.station.SimulatedStation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The paper's geographic experiment (Figs. 8-11), its three configurations. First one cluster (EA
 * replicas and an Operator in the EAs' region, an AA): the vehicles (the load client) reach each EA
 * replica, and the AA reaches the EA, through a {@link DelayingProxy} whose one-way delay is the
 * {@link Region} table's between the two regions: (1) zero, everything in the EAs' region; (2) the
 * vehicles and the AA in the remote region. Then, per mode of {@link Config#bothRegionsModes()}, (3)
 * groups replicated in both regions: a cluster with {@link Config#regionalReplicas()} EA replicas, an
 * Operator and an AA in each region, one replication group whose messages between the regions are
 * delayed by the table's one-way delay ({@code vpki.replication.emulated-delays}, the {@code PeerDelay}
 * protocol), each AA validating at the EA replicas of its own region ({@code vpki.aa.ea.access-points});
 * the vehicles of the remote region register at its Operator and enrol and authorize at its EA
 * replicas and AA, with nothing in between. Per configuration an open-loop EC phase (fresh stations)
 * then an open-loop AT phase, at rates well below saturation: the latency the regions add.
 */
public final class GeoExperiment {
    /**
     * What to run.
     *
     * @param spec          the cluster (its EA replicas and Operators all in {@code eaRegion})
     * @param eaRegion      where the EAs and Operators are (the paper: Ireland)
     * @param remoteRegion  where the vehicles and AAs are in the second configuration (the paper: US West)
     * @param window        each phase's timed window
     * @param bothRegionsModes the modes ({order, propagation}) of the third configuration, one cluster each; empty: not run
     * @param regionalReplicas EA replicas per region in the third configuration
     */
    public record Config(ClusterSpec spec, Region eaRegion, Region remoteRegion, double ecRate, double atRate, Duration window,
                         int workers, List<PsidSsp> atPermissions, List<String[]> bothRegionsModes, int regionalReplicas) {
        public Config {
            atPermissions = List.copyOf(atPermissions);
            bothRegionsModes = List.copyOf(bothRegionsModes);
            if (regionalReplicas < 1 || regionalReplicas > 10) {
                throw new IllegalArgumentException("1 to 10 EA replicas per region");
            }
            if (eaRegion == remoteRegion) {
                throw new IllegalArgumentException("the remote region must differ from the EAs' region");
            }
            if (ecRate <= 0 || atRate <= 0) {
                throw new IllegalArgumentException("rates must be positive");
            }
        }
    }

    /**
     * One configuration's measurement.
     *
     * @param configuration    the paper's configuration: 1, 2 or 3
     * @param oneWay           between the vehicles (and AAs) and the EA replicas they use
     * @param replicationOneWay between the replicas of the two regions (zero unless configuration 3)
     */
    private record Placement(int configuration, String name, String mode, Region vehicles, Duration oneWay, Duration replicationOneWay,
                             PhaseResult ec, PhaseResult at) {
        long roundTripMillis() {
            return 2 * Math.max(oneWay.toMillis(), replicationOneWay.toMillis());
        }
    }

    private final Config config;
    private final HostNetwork network;
    private final HttpClient http;
    private final Consumer<String> log;
    private final Consumer<LoadRunner.Progress> progress;
    /** Where the report goes: the paths it names are relative to it. */
    private final ExperimentContext context;
    /** Proxies between the AAs and the EA replicas, and between the vehicles and the EA replicas. */
    private final List<DelayingProxy> proxies = java.util.Collections.synchronizedList(new ArrayList<>());
    /** CPU per operation of every phase (CpuMeter rows). */
    private final List<List<String>> cpuRows = new ArrayList<>();

    private GeoExperiment(Config config, ExperimentContext context) {
        this.config = config;
        this.network = context.network();
        this.http = context.http();
        this.log = context.log();
        this.progress = context.progress();
        this.context = context;
    }

    /** Starts the cluster and the proxies on {@code network} (closed by the caller), measures both configurations, stops everything. */
    public static ExperimentReport run(Config config, ExperimentContext context) throws IOException {
        GeoExperiment g = new GeoExperiment(config, context);
        try {
            return g.run();
        } finally {
            synchronized (g.proxies) {
                g.proxies.forEach(DelayingProxy::close);
            }
        }
    }

    private ExperimentReport run() throws IOException {
        Instant started = Instant.now();
        String loadBefore = Machine.loadAverage();
        List<Placement> placements = new ArrayList<>();
        Map<String, String> settings = new LinkedHashMap<>();
        String mode = config.spec().mode();
        try (LocalCluster cluster = LocalCluster.start(config.spec(), network, this::aaToEa, log)) {
            LocalCluster.Endpoints e = cluster.endpoints();
            List<URI> vehicleToEa = e.eaReplicas().stream().map(this::proxyTo).toList();
            StationSource stations = new StationSource(http, e, 0, config.atPermissions(), "g");
            Workload workload = Workload.connect(e.dc(), e.rcaCertificate(), config.atPermissions(), vehicleToEa, e.aas(), true, http,
                    progress);
            Region ea = config.eaRegion();
            Region remote = config.remoteRegion();
            placements
                    .add(measure(cluster, 1, "everything in " + ea.place(), mode, ea, ea.oneWayTo(ea), Duration.ZERO, workload, stations));
            placements.add(measure(cluster, 2, "vehicles and AAs in " + remote.place() + ", EAs in " + ea.place(), mode, remote,
                    remote.oneWayTo(ea), Duration.ZERO, workload, stations));
            settings.put("logs", context.where(e.logDir()));
        }
        synchronized (proxies) {
            proxies.forEach(DelayingProxy::close);
            proxies.clear();
        }
        for (String[] m : config.bothRegionsModes()) {
            placements.add(bothRegions(m[0], m[1]));
        }
        settings.put("machine", Machine.describe());
        settings.put("load average (1 min) before and after", loadBefore + " / " + Machine.loadAverage());
        settings.put("commit", FaultRun.commit(config.spec().projectDir()));
        settings.put("topology", "one host per service: " + config.spec().describe() + ", the EA replicas and the Operator in "
                + config.eaRegion() + "; " + network.describe());
        settings.put("topology, configuration 3", config.bothRegionsModes().isEmpty()
                ? "not run"
                : "per mode a cluster of "
                        + config.regionalReplicas() + " EA replicas, an Operator and an AA in each of " + config.eaRegion() + " and "
                        + config.remoteRegion() + ", one replication group; the vehicles of " + config.remoteRegion().place()
                        + " register at its Operator and use its EA replicas and AA directly");
        settings.put("WAN emulation", "configurations 1 and 2: a delaying TCP proxy (DelayingProxy, in the load client's process at "
                + network.launcherAddress() + ") in front of each EA replica for the vehicles and for the AAs, no replication delay"
                + " (every replica in one region); configuration 3: every replication message between replicas of different regions"
                + " delayed on arrival by the PeerDelay protocol (vpki.replication.emulated-delays), the AAs validating at their own"
                + " region's EA replicas (vpki.aa.ea.access-points), no HTTP delay; one-way delays from the region table (Region),"
                + " zero inside a region");
        settings.put("region table (one-way)", regionTable());
        settings.put("load", String.format(Locale.ROOT, "open loop, %s EC/s then %s AT/s, %s each; requests built before the window",
                number(config.ecRate()), number(config.atRate()), config.window()));
        settings.put("client workers", Integer.toString(config.workers()));
        List<String> limits = new ArrayList<>(List.of(
                "The delays are added in user space by a TCP proxy in the load client's process (no tc netem here): a constant one-way"
                        + " delay per link from the region table, without jitter, loss or bandwidth limits; the table's values are half"
                        + " of commonly published round trips between the AWS regions, not measured.",
                "In the first configuration the proxies stay in the path with no delay: one extra local hop, a fraction of a"
                        + " millisecond on this machine.",
                "All processes share this machine's " + Machine.cores() + " cores; the rates are kept low so that latency is the"
                        + " regions', not queueing.",
                "Configuration 3 is measured from the remote region's vehicles only (the EAs' region's are symmetric); the paper's"
                        + " groups were whole machines per authority, here each region has " + config.regionalReplicas()
                        + " EA replica(s), one Operator and one AA."));
        if (config.bothRegionsModes().isEmpty()) {
            limits.add(0, "The paper's third configuration (groups replicated in both regions) was not run (--both-regions-modes none).");
        }
        return new ExperimentReport(PaperValues.GEOGRAPHIC, "Geographic PKI: EC and AT latency across regions (paper Figs. 8-11)", started,
                Instant.now(), settings, limits, figures(placements), comparisons(placements),
                List.of(table(placements), CpuMeter.table(cpuRows)), sweeps(placements, config.eaRegion()), true);
    }

    /** The proxy an AA uses to reach an EA replica (made while the cluster boots; its delay is set per configuration). */
    private URI aaToEa(URI ea) {
        return proxyTo(ea);
    }

    private URI proxyTo(URI target) {
        try {
            DelayingProxy p = DelayingProxy.start("wan-" + proxies.size(), new InetSocketAddress(network.launcherAddress(), 0),
                    new InetSocketAddress(target.getHost(), target.getPort()), Duration.ZERO);
            proxies.add(p);
            return URI.create("http://" + network.launcherAddress() + ":" + p.port());
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot start a delaying proxy to " + target, ex);
        }
    }

    /**
     * Configuration 3 in one mode: a cluster with replicas, an Operator and an AA in each region, the replication
     * delayed between the regions, measured from the remote region's vehicles.
     */
    private Placement bothRegions(String order, String propagation) throws IOException {
        Region ea = config.eaRegion();
        Region remote = config.remoteRegion();
        int k = config.regionalReplicas();
        ClusterSpec base = config.spec();
        ClusterSpec spec = new ClusterSpec(base.projectDir(), base.workDir().resolveSibling(base.workDir().getFileName() + "-both-"
                + order.toLowerCase(Locale.ROOT) + "-" + propagation.toLowerCase(Locale.ROOT)), 2 * k, 2, 2, order, propagation,
                base.basePort(), base.jgroupsBasePort(), base.authorityCurve(), base.appendFsync(), base.failureDetection());
        BothRegions routes = new BothRegions(ea, remote, k);
        try (LocalCluster cluster = LocalCluster.start(spec, network, routes, log)) {
            LocalCluster.Endpoints e = cluster.endpoints();
            // the remote region's vehicles: its Operator, its EA replicas, its AA, all direct
            StationSource stations = new StationSource(http, e, 1, config.atPermissions(), "g3");
            Workload workload = Workload.connect(e.dc(), e.rcaCertificate(), config.atPermissions(), e.eaReplicas().subList(k, 2 * k),
                    List.of(e.aas().get(1)), true, http, progress);
            return measure(cluster, 3, "groups in both regions, vehicles in " + remote.place(), spec.mode(), remote, Duration.ZERO,
                    ea.oneWayTo(remote), workload, stations);
        }
    }

    /**
     * Configuration 3's routes: EA replicas 0..k-1, Operator 0 and AA 0 in the EAs' region, EA replicas k..2k-1, Operator 1
     * and AA 1 in the remote region; each AA validates at its region's replicas; replication messages between the regions
     * delayed by the table's one-way delay.
     */
    record BothRegions(Region ea, Region remote, int perRegion) implements LocalCluster.Routes {
        @Override
        public URI aaToEa(URI eaReplica) {
            return eaReplica;
        }

        @Override
        public List<URI> aaAccessPoints(int aa, List<URI> eaReplicas) {
            return aa == 0 ? eaReplicas.subList(0, perRegion) : eaReplicas.subList(perRegion, 2 * perRegion);
        }

        @Override
        public Map<String, Duration> replicationDelays(String replica) {
            Map<String, Duration> delays = new LinkedHashMap<>();
            List<String> members = new ArrayList<>();
            for (int i = 0; i < 2 * perRegion; i++) {
                members.add("ea-" + i);
            }
            members.add("operator-0");
            members.add("operator-1");
            for (String peer : members) {
                Duration d = regionOf(replica).oneWayTo(regionOf(peer));
                if (!peer.equals(replica) && !d.isZero()) {
                    delays.put(peer, d);
                }
            }
            return delays;
        }

        Region regionOf(String member) {
            int index = Integer.parseInt(member.substring(member.lastIndexOf('-') + 1));
            boolean first = member.startsWith("ea-") ? index < perRegion : index == 0;
            return first ? ea : remote;
        }
    }

    private Placement measure(LocalCluster cluster, int configuration, String name, String mode, Region vehicles, Duration oneWay,
                              Duration replicationOneWay, Workload workload, StationSource stations) {
        // configurations 1 and 2: every proxy stands between the EAs' region and the vehicles' or AAs' region
        synchronized (proxies) {
            proxies.forEach(p -> p.delay(oneWay));
        }
        log.accept(name + " (" + mode + "): one-way delay " + oneWay.toMillis() + " ms to the EAs, " + replicationOneWay.toMillis()
                + " ms between replicas of different regions");
        Map<String, Long> before = CpuMeter.snapshot(cluster);
        int ecCount = (int) Math.ceil(config.ecRate() * config.window().toSeconds());
        List<SimulatedStation> fresh = stations.register(ecCount);
        PhaseResult ec = workload.enrol("EC, " + name + label(configuration, mode), fresh, new LoadModel.Open(config.ecRate(), ecCount,
                config.window().plusSeconds(2), config.workers()));
        Map<String, Long> between = CpuMeter.snapshot(cluster);
        cpuRows.add(CpuMeter.row("EC, " + name + label(configuration, mode), ec, CpuMeter.perOperation(before, between, ec)));
        List<SimulatedStation> enrolled = fresh.stream().filter(SimulatedStation::enrolled).toList();
        if (enrolled.isEmpty()) {
            throw new IllegalStateException("no station enrolled in " + name + ": " + ec.failuresByCode());
        }
        long atCount = (long) Math.ceil(config.atRate() * config.window().toSeconds());
        PhaseResult at = workload.fetch("AT, " + name + label(configuration, mode), enrolled, atCount, new LoadModel.Open(config.atRate(),
                atCount, config.window().plusSeconds(2), config.workers()));
        cpuRows.add(CpuMeter.row("AT, " + name + label(configuration, mode), at,
                CpuMeter.perOperation(between, CpuMeter.snapshot(cluster), at)));
        return new Placement(configuration, name, mode, vehicles, oneWay, replicationOneWay, ec, at);
    }

    /** The mode in a configuration 3 label (one cluster per mode), nothing otherwise. */
    private static String label(int configuration, String mode) {
        return configuration == 3 ? ", " + mode : "";
    }

    private static String regionTable() {
        List<String> pairs = new ArrayList<>();
        Region[] all = Region.values();
        for (int i = 0; i < all.length; i++) {
            for (int j = i + 1; j < all.length; j++) {
                pairs.add(all[i].place() + " - " + all[j].place() + " " + all[i].oneWayTo(all[j]).toMillis() + " ms");
            }
        }
        return String.join(", ", pairs);
    }

    private static List<ExperimentReport.Figure> figures(List<Placement> placements) {
        List<ExperimentReport.Curve> curves = new ArrayList<>();
        curves.add(curve("EC p50", "#1f77b4", "", placements, p -> p.ec().latencyMillis(50)));
        curves.add(curve("EC p99", "#1f77b4", "7,4", placements, p -> p.ec().latencyMillis(99)));
        curves.add(curve("AT p50", "#ff7f0e", "", placements, p -> p.at().latencyMillis(50)));
        curves.add(curve("AT p99", "#ff7f0e", "7,4", placements, p -> p.at().latencyMillis(99)));
        curves.add(ExperimentReport.Curve.paperY("paper: 10-20 ms, everything in Ireland", 15));
        curves.add(ExperimentReport.Curve.paperY("paper: about 300 ms, AAs and clients in US West", 300));
        StringBuilder xs = new StringBuilder();
        for (int i = 0; i < placements.size(); i++) {
            Placement p = placements.get(i);
            xs.append(i == 0 ? "" : "; ").append(i + 1).append(": ").append(p.name()).append(" (").append(p.mode()).append(')');
        }
        return List.of(new ExperimentReport.Figure("Figs. 8-11", "EC and AT latency per configuration", "x = " + xs
                + ". Configuration 2: the AT pays the AA-to-EA round trip, the EC the vehicle-to-EA one; configuration 3: only a"
                + " write waiting for the other region's replicas (SYNC, or TOTAL's sequencer there) pays the replication round trip.",
                "configuration", "latency (ms, log scale)", true, curves));
    }

    private static ExperimentReport.Curve curve(String legend, String colour, String dash, List<Placement> placements,
                                                java.util.function.ToDoubleFunction<Placement> y) {
        List<double[]> points = new ArrayList<>();
        for (int i = 0; i < placements.size(); i++) {
            points.add(new double[]{i + 1, y.applyAsDouble(placements.get(i))});
        }
        return new ExperimentReport.Curve(legend, colour, dash, ExperimentReport.Kind.MEASURED, points);
    }

    private static List<ExperimentReport.Comparison> comparisons(List<Placement> placements) {
        List<PaperValues.PaperValue> paper = PaperValues.of(PaperValues.GEOGRAPHIC);
        List<ExperimentReport.Comparison> out = new ArrayList<>();
        for (int i = 0; i < paper.size(); i++) {
            // the paper's values: configuration 1, 2, then 3's AT and 3's EC
            int configuration = Math.min(i + 1, 3);
            String ours = placements.stream().filter(p -> p.configuration() == configuration).map(GeoExperiment::latencies)
                    .collect(java.util.stream.Collectors.joining("; "));
            out.add(new ExperimentReport.Comparison(paper.get(i), ours.isEmpty() ? "not run" : ours));
        }
        return out;
    }

    private static String latencies(Placement p) {
        return String.format(Locale.ROOT, "EC p50 %.1f ms, p99 %.1f ms; AT p50 %.1f ms, p99 %.1f ms (%s, %s)", p.ec().latencyMillis(50),
                p.ec().latencyMillis(99), p.at().latencyMillis(50), p.at().latencyMillis(99), p.name(), p.mode());
    }

    private static ExperimentReport.Table table(List<Placement> placements) {
        List<List<String>> rows = new ArrayList<>();
        Placement local = placements.stream().filter(p -> p.configuration() == 1).findFirst().orElse(null);
        double localEc = local == null ? 0 : local.ec().latencyMillis(50);
        double localAt = local == null ? 0 : local.at().latencyMillis(50);
        double localAtP99 = local == null ? 0 : local.at().latencyMillis(99);
        for (Placement p : placements) {
            long rtt = p.roundTripMillis();
            rows.add(List.of(Integer.toString(p.configuration()), p.name(), p.mode(), p.oneWay().toMillis() + " ms",
                    p.replicationOneWay().toMillis() + " ms",
                    String.format(Locale.ROOT, "%.1f / %.1f", p.ec().latencyMillis(50), p.ec().latencyMillis(99)),
                    String.format(Locale.ROOT, "%.1f", localEc + rtt),
                    String.format(Locale.ROOT, "%.1f / %.1f", p.at().latencyMillis(50), p.at().latencyMillis(99)),
                    String.format(Locale.ROOT, "%.1f", localAt + 2 * p.oneWay().toMillis()),
                    String.format(Locale.ROOT, "%+.1f", p.at().latencyMillis(99) - localAtP99),
                    p.ec().failed() + p.at().failed() + ""));
        }
        return new ExperimentReport.Table("Latency per configuration against one round trip plus local processing",
                List.of("configuration", "placement", "mode", "one-way delay vehicles/AAs to their EAs", "one-way delay between the"
                        + " replicas' regions", "EC p50 / p99 ms", "EC bound: local p50 + one round trip", "AT p50 / p99 ms",
                        "AT bound: local p50 + the AA-to-EA round trip", "AT p99 minus configuration 1's (goal in 3: within 2 ms)",
                        "failed"),
                rows);
    }

    private static List<Sweep> sweeps(List<Placement> placements, Region eaRegion) {
        List<Sweep> out = new ArrayList<>();
        for (Placement p : placements) {
            Map<String, String> setting = Map.of("configuration", Integer.toString(p.configuration()), "placement", p.name(), "mode",
                    p.mode(),
                    "oneWayDelayMs", Long.toString(p.oneWay().toMillis()), "replicationOneWayDelayMs",
                    Long.toString(p.replicationOneWay().toMillis()), "eaRegion", eaRegion.awsName(), "vehiclesRegion",
                    p.vehicles().awsName());
            String label = p.name() + label(p.configuration(), p.mode());
            out.add(new Sweep("EC, " + label, PhaseResult.ENROLMENT, setting, List.of(p.ec())));
            out.add(new Sweep("AT, " + label, PhaseResult.AUTHORIZATION, setting, List.of(p.at())));
        }
        return out;
    }

    private static String number(double v) {
        return eu.vpki.station.report.ReportCharts.number(v);
    }
}
