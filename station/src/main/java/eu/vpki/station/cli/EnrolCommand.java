package eu.vpki.station.cli;

import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.load.Workload;
import eu.vpki.station.load.PhaseResult;
import eu.vpki.station.FleetFile;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.report.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

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
    @Mixin
    FleetOptions fleet = new FleetOptions();

    @Override
    public Integer call() throws Exception {
        List<SimulatedStation> stations = FleetFile.read(fleet.fleetFile);
        AtomicReference<LoadRunner.Progress> progress = new AtomicReference<>();
        Workload w = CommandSupport.connect(target, load, progress);
        Instant started = Instant.now();
        PhaseResult r = CommandSupport.withProgress(progress, () -> w.enrol(stations, load.model(stations.size())));
        FleetFile.write(fleet.fleetFile, stations);
        return CommandSupport.report(new RunReport("enrolment of " + stations.size() + " stations", started,
                CommandSupport.settings(load, stations.isEmpty() ? "-" : stations.get(0).curve().curveName(), "DC " + target.dc),
                List.of(r)),
                fleet.reportDir, "enrol");
    }
}
