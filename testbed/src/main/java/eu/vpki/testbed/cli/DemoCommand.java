package eu.vpki.testbed.cli;

import eu.vpki.testbed.ClassDataRecording;
import eu.vpki.station.cli.LoadOptions;
import eu.vpki.station.cli.TargetOptions;
import eu.vpki.station.cli.CommandSupport;
import eu.vpki.testbed.ClusterSpec;
import eu.vpki.testbed.LocalCluster;
import eu.vpki.testbed.ReplicaConvergence;
import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.load.Workload;
import eu.vpki.station.load.PhaseResult;
import eu.vpki.station.FleetRegistrar;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.report.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.http.HttpClient;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

/** The main job: a local cluster, a fleet registered, enrolled and fetching pseudonyms, a report, then everything stopped. */
@Command(name = "demo", mixinStandardHelpOptions = true, description = "Start a local PKI, register a fleet, enrol it, fetch pseudonyms, print the report, stop.")
public final class DemoCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster;
    @Option(names = "--stations", defaultValue = "1000", description = "fleet size (default ${DEFAULT-VALUE})")
    int stations;
    @Option(names = "--per-station", defaultValue = "10", description = "pseudonyms (ATs) per station (default ${DEFAULT-VALUE})")
    int perStation;
    @Option(names = "--curve", defaultValue = "nistP256", description = "station key curve: nistP256, brainpoolP256r1, brainpoolP384r1 (default ${DEFAULT-VALUE})")
    String curve;
    @Option(names = "--report-dir", defaultValue = "run/reports", description = "where reports go (default ${DEFAULT-VALUE})")
    Path reportDir;
    @Option(names = "--concurrency", defaultValue = "32", description = "requests in flight (default ${DEFAULT-VALUE})")
    int concurrency;

    @Override
    public Integer call() throws Exception {
        ClusterSpec spec = cluster.spec();
        ClassDataRecording.record(spec, System.err::println);
        Instant started = Instant.now();
        try (LocalCluster pki = LocalCluster.start(spec, System.err::println)) {
            LocalCluster.Endpoints e = pki.endpoints();
            HttpClient http = CommandSupport.http(e.tlsCa());
            SecureRandom random = new SecureRandom();
            String prefix = "VIN-" + Long.toHexString(random.nextLong() & 0xffffffffL) + "-";
            List<SimulatedStation> fleet = IntStream.range(0, stations).parallel()
                    .mapToObj(i -> SimulatedStation.generate(prefix + i, CommandSupport.curve(curve), random)).toList();
            System.err.println("registering " + stations + " stations through the Operator");
            new FleetRegistrar(http, e.operators().get(0), e.operatorToken())
                    .register(fleet, CommandSupport.AT_PERMISSIONS, Duration.ofDays(365), 1000);
            // the Operator acknowledged each registration; an EA replica that has not applied one yet refuses that
            // station's enrolment with unknownits (ASYNC; a vehicle retries)
            ReplicaConvergence.await(pki.replicas(), Duration.ofSeconds(30), System.err::println);

            TargetOptions target = new TargetOptions();
            target.dc = e.dc();
            target.rcaCert = e.rcaCertificate();
            target.eaUrls = new ArrayList<>(e.eaReplicas());
            target.aaUrls = new ArrayList<>(e.aas());
            LoadOptions load = new LoadOptions();
            load.concurrency = concurrency;
            load.maxDuration = Duration.ofMinutes(10);
            load.precompute = true;
            AtomicReference<LoadRunner.Progress> progress = new AtomicReference<>();
            Workload w = CommandSupport.workload(target, load, http, progress);

            System.err.println("enrolling " + stations + " stations");
            PhaseResult enrol = CommandSupport.withProgress(progress, () -> w.enrol(fleet, load.model(fleet.size())));
            List<SimulatedStation> enrolled = fleet.stream().filter(SimulatedStation::enrolled).toList();
            // a replica that has not applied an EC yet refuses its ATs with unknownits (ASYNC; a vehicle retries)
            ReplicaConvergence.await(pki.replicas(), Duration.ofSeconds(30), System.err::println);
            long ats = (long) enrolled.size() * perStation;
            System.err.println("fetching " + ats + " pseudonyms (" + perStation + " per enrolled station)");
            PhaseResult fetch = enrolled.isEmpty()
                    ? null
                    : CommandSupport.withProgress(progress, () -> w.fetch("authorization", enrolled, ats, load.model(ats)));
            Map<String, String> settings = new LinkedHashMap<>(CommandSupport.settings(load, curve, "local cluster: " + spec.describe()));
            settings.put("stations", Integer.toString(stations));
            settings.put("logs", e.logDir().toString());
            List<PhaseResult> phases = fetch == null ? List.of(enrol) : List.of(enrol, fetch);
            RunReport report = new RunReport("vpki demo: " + stations + " stations, " + perStation + " pseudonyms each", started, settings,
                    phases);
            return CommandSupport.report(report, reportDir, "demo");
        }
    }
}
