package eu.vpki.station.cli;

import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.load.Workload;
import eu.vpki.station.load.PhaseResult;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.report.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/** Fetches pseudonyms for the enrolled stations of a fleet file. */
@Command(name = "fetch", mixinStandardHelpOptions = true, description = "Fetch pseudonym certificates (ATs) for the enrolled stations of a fleet file.")
public final class FetchCommand implements Callable<Integer> {
    @Mixin
    TargetOptions target = new TargetOptions();
    @Mixin
    LoadOptions load = new LoadOptions();
    @Mixin
    FleetOptions fleet = new FleetOptions();
    @Option(names = "--per-station", defaultValue = "10", description = "ATs per station (default ${DEFAULT-VALUE})")
    int perStation;

    @Override
    public Integer call() throws Exception {
        List<SimulatedStation> enrolled = CommandSupport.enrolledStations(fleet.fleetFile);
        if (enrolled.isEmpty()) {
            return 2;
        }
        AtomicReference<LoadRunner.Progress> progress = new AtomicReference<>();
        Workload w = CommandSupport.connect(target, load, progress);
        long n = (long) enrolled.size() * perStation;
        Instant started = Instant.now();
        PhaseResult r = CommandSupport.withProgress(progress, () -> w.fetch("authorization", enrolled, n, load.model(n)));
        return CommandSupport.report(new RunReport(n + " pseudonyms for " + enrolled.size() + " stations", started,
                CommandSupport.settings(load, enrolled.get(0).curve().curveName(), "DC " + target.dc), List.of(r)), fleet.reportDir,
                "fetch");
    }
}
