package eu.vpki.loadclient;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the load client: simulated OBUs that speak TS 102 941 to the PKI.
 * The commands (register, enrol, fetch, sweep) arrive with TODO(#6).
 */
@Command(name = "vpki-load", mixinStandardHelpOptions = true, version = "vpki-load 0.1.0",
        description = "Simulated ITS stations that enrol and fetch pseudonym certificates, measured.")
public final class LoadClient implements Runnable {

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new LoadClient()).execute(args));
    }
}
