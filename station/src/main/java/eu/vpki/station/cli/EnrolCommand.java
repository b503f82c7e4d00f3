package eu.vpki.station.cli;

import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.load.Workload;
import eu.vpki.station.load.PhaseResult;
import eu.vpki.station.FleetFile;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.report.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/** Enrols the stations of a fleet file and keeps their ECs in it. */
@Command(name = "enrol", mixinStandardHelpOptions = true, description = "Enrol the stations of a fleet file at the EA the CTL names.")
public final class EnrolCommand implements Callable<Integer> {
    @Mixin
    TargetOptions target = new TargetOptions();
    @Mixin
    LoadOptions load = new LoadOptions();
    @Option(names = "--fleet", defaultValue = "run/fleet.json", description = "fleet file (default ${DEFAULT-VALUE})")
    Path fleetFile;
    @Option(names = "--report-dir", defaultValue = "run/reports", description = "where reports go (default ${DEFAULT-VALUE})")
    Path reportDir;

    @Override
    public Integer call() throws Exception {
        target.resolve();
        List<SimulatedStation> fleet = FleetFile.read(fleetFile);
        AtomicReference<LoadRunner.Progress> progress = new AtomicReference<>();
        Workload w = CommandSupport.workload(target, load, CommandSupport.http(target.tlsCa), progress);
        Instant started = Instant.now();
        PhaseResult r = CommandSupport.withProgress(progress, () -> w.enrol(fleet, load.model(fleet.size())));
        FleetFile.write(fleetFile, fleet);
        return CommandSupport.report(new RunReport("enrolment of " + fleet.size() + " stations", started,
                CommandSupport.settings(load, fleet.isEmpty() ? "-" : fleet.get(0).curve().curveName(), "DC " + target.dc), List.of(r)),
                reportDir, "enrol");
    }
}
