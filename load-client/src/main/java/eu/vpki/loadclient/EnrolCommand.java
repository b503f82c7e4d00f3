package eu.vpki.loadclient;

import eu.vpki.loadclient.measure.LoadRunner;
import eu.vpki.loadclient.measure.Workload;
import eu.vpki.loadclient.measure.PhaseResult;
import eu.vpki.loadclient.obu.FleetFile;
import eu.vpki.loadclient.obu.SimulatedStation;
import eu.vpki.loadclient.report.RunReport;
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
final class EnrolCommand implements Callable<Integer> {
    @Mixin
    CommonOptions.Target target = new CommonOptions.Target();
    @Mixin
    CommonOptions.Load load = new CommonOptions.Load();
    @Option(names = "--fleet", defaultValue = "run/fleet.json", description = "fleet file (default ${DEFAULT-VALUE})")
    Path fleetFile;
    @Option(names = "--report-dir", defaultValue = "run/reports", description = "where reports go (default ${DEFAULT-VALUE})")
    Path reportDir;

    @Override
    public Integer call() throws Exception {
        target.resolve();
        List<SimulatedStation> fleet = FleetFile.read(fleetFile);
        AtomicReference<LoadRunner.Progress> progress = new AtomicReference<>();
        Workload w = CommonOptions.workload(target, load, CommonOptions.http(target.tlsCa), progress);
        Instant started = Instant.now();
        PhaseResult r = CommonOptions.withProgress(progress, () -> w.enrol(fleet, load.model(fleet.size())));
        FleetFile.write(fleetFile, fleet);
        return CommonOptions.report(new RunReport("enrolment of " + fleet.size() + " stations", started,
                CommonOptions.settings(load, fleet.isEmpty() ? "-" : fleet.get(0).curve().curveName(), "DC " + target.dc), List.of(r)),
                reportDir, "enrol");
    }
}
