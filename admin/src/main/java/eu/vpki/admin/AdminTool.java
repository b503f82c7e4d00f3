package eu.vpki.admin;

import eu.vpki.admin.status.StatusCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code vpki-admin}, the tool an operator runs beside the services (and the one-shot
 * bootstrap containers of {@code compose.yaml}): the first start of a PKI and its credentials, the RCA admin and
 * Operator APIs ({@code authorities}, {@code stations}) and the cluster's state ({@code status}). It
 * carries no test tooling: the simulated stations, the launcher, the fault harness and the
 * experiments live in modules of their own, behind {@code ./vpki}.
 */
@Command(name = "vpki-admin", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, description = {
        "The operator's tool: first start of a PKI (secrets, TLS, replication credentials, EA and AA certificates), the key",
        "ceremony of authorities whose keys are in a PKCS#11 token, the authorities and stations through the RCA admin and Operator",
        "APIs, and the state of the replicated cluster."}, subcommands = {
                BootstrapCommand.class, CeremonyCommand.class, AuthoritiesCommand.class, StationsCommand.class, StatusCommand.class})
public final class AdminTool implements Runnable {

    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command line: a service's refusal or an unreachable service ends the command with its message (exit
     * status 2), not a stack trace.
     */
    public static CommandLine commandLine() {
        return new CommandLine(new AdminTool()).setExecutionExceptionHandler((e, line, parsed) -> {
            if (e instanceof ApiCall.Refused || e instanceof java.io.UncheckedIOException || e instanceof IllegalArgumentException) {
                line.getErr().println(e.getMessage());
                return 2;
            }
            throw e;
        });
    }
}
