package eu.vpki.station.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Picocli mixin: the fleet file a station command reads (and writes) and where its report goes. */
public final class FleetOptions {
    @Option(names = "--fleet", defaultValue = "run/fleet.json", description = "fleet file (default ${DEFAULT-VALUE})")
    public Path fleetFile;
    @Option(names = "--report-dir", defaultValue = "run/reports", description = "where reports go (default ${DEFAULT-VALUE})")
    public Path reportDir;
}
