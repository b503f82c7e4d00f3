package eu.vpki.station.cli;

import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.load.Workload;
import eu.vpki.station.load.PhaseResult;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.report.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/** Raises the offered AT rate step by step until saturation; the HTML report draws latency against throughput. */
@Command(name = "sweep", mixinStandardHelpOptions = true, description = "Open-loop AT requests at rising rates until saturation; report with the latency-throughput chart.")
public final class SweepCommand implements Callable<Integer> {
    @Mixin
    TargetOptions target = new TargetOptions();
    @Mixin
    FleetOptions fleet = new FleetOptions();
    @Option(names = "--start-rate", defaultValue = "50", description = "first offered rate, AT/s (default ${DEFAULT-VALUE})")
    double startRate;
    @Option(names = "--factor", defaultValue = "1.5", description = "rate multiplier per step (default ${DEFAULT-VALUE})")
    double factor;
    @Option(names = "--steps", defaultValue = "10", description = "most steps (default ${DEFAULT-VALUE})")
    int steps;
    @Option(names = "--step-duration", defaultValue = "PT10S", description = "duration of each step (default ${DEFAULT-VALUE})")
    Duration stepDuration;
    @Option(names = "--workers", defaultValue = "128", description = "client worker threads (default ${DEFAULT-VALUE})")
    int workers;
    @Option(names = "--precompute", defaultValue = "true", negatable = true, description = "build requests before each step (default ${DEFAULT-VALUE})")
    boolean precompute;

    @Override
    public Integer call() throws Exception {
        List<SimulatedStation> enrolled = CommandSupport.enrolledStations(fleet.fleetFile);
        if (enrolled.isEmpty()) {
            return 2;
        }
        LoadOptions load = new LoadOptions();
        load.precompute = precompute;
        load.concurrency = workers;
        AtomicReference<LoadRunner.Progress> progress = new AtomicReference<>();
        Workload w = CommandSupport.connect(target, load, progress);
        Instant started = Instant.now();
        List<PhaseResult> results = CommandSupport.withProgress(progress,
                () -> w.sweep(enrolled, startRate, factor, steps, stepDuration, workers));
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("curve", enrolled.get(0).curve().curveName());
        settings.put("precomputed requests", precompute ? "yes (built before each step)" : "no");
        settings.put("load model", "open loop, rate x" + factor + " per " + stepDuration + " step from " + startRate + "/s");
        settings.put("deployment", "DC " + target.dc);
        settings.put("client workers", Integer.toString(workers));
        settings.put("stations", Integer.toString(enrolled.size()));
        settings.put("machine", CommandSupport.machine());
        RunReport report = new RunReport("AT sweep", started, settings, results);
        CommandSupport.report(report, fleet.reportDir, "sweep");
        return 0;
    }
}
