package eu.vpki.cli;

import eu.vpki.admin.BootstrapCommand;
import eu.vpki.admin.VersionProvider;
import eu.vpki.experiments.cli.ExperimentCommand;
import eu.vpki.faults.cli.FaultsCommand;
import eu.vpki.station.cli.EnrolCommand;
import eu.vpki.station.cli.FetchCommand;
import eu.vpki.station.cli.RegisterCommand;
import eu.vpki.station.cli.SweepCommand;
import eu.vpki.testbed.cli.ClusterCommand;
import eu.vpki.testbed.cli.DemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code ./vpki}: one command line over the modules that do the work, and nothing
 * else. The demo and the local PKI come from the testbed, the simulated stations and their load
 * from the station module, the fault harness and the experiments from theirs, the bootstrap from the
 * operator's admin tool.
 */
@Command(name = "vpki", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, description = "A local ETSI TS 102 941 PKI, simulated ITS stations that enrol and fetch pseudonym certificates (ATs), measured;"
        + " the fault-injection harness and the paper's experiments.", subcommands = {DemoCommand.class, ClusterCommand.class,
                RegisterCommand.class, EnrolCommand.class, FetchCommand.class,
                SweepCommand.class, StatusCommand.class, BootstrapCommand.class, FaultsCommand.class, ExperimentCommand.class})
public final class Vpki implements Runnable {

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Vpki()).execute(args));
    }
}
