package eu.vpki.admin;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code vpki-admin}, the tool an operator runs beside the services (and the one-shot
 * bootstrap containers of {@code compose.yaml}): the first start of a PKI and its credentials. It
 * carries no test tooling: the simulated stations, the launcher, the fault harness and the
 * experiments live in modules of their own, behind {@code ./vpki}.
 */
@Command(name = "vpki-admin", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, description = "The operator's tool: first start of a PKI (secrets, TLS, replication credentials, EA and AA certificates) and the key ceremony of authorities whose keys are in a PKCS#11 token.", subcommands = {
        BootstrapCommand.class, CeremonyCommand.class})
public final class AdminTool implements Runnable {

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new AdminTool()).execute(args));
    }
}
