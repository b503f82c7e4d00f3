package eu.vpki.loadclient;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code vpki-load}: simulated OBUs that speak TS 102 941 to the PKI, measured. */
@Command(name = "vpki-load", mixinStandardHelpOptions = true, version = "vpki-load 0.1.0",
        description = "Simulated ITS stations that enrol and fetch pseudonym certificates (ATs), measured.",
        subcommands = {DemoCommand.class, ClusterCommand.class, RegisterCommand.class, EnrolCommand.class, FetchCommand.class,
                SweepCommand.class, BootstrapCommand.class, FaultsCommand.class, ExperimentCommand.class})
public final class LoadClient implements Runnable {

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new LoadClient()).execute(args));
    }
}
