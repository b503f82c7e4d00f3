package eu.vpki.admin;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code vpki-admin stations}: the Operator API ({@code docs/operator.md}) without curl: register a fleet, list it,
 * read, suspend, reactivate or revoke a station. Writes print the version token ({@code X-Vpki-Version}) that
 * makes a later read on any replica see them.
 */
@Command(name = "stations", mixinStandardHelpOptions = true, description = "An operator's fleet of ITS stations (Operator API).", subcommands = {
        StationsCommand.Register.class, StationsCommand.ListStations.class, StationsCommand.Show.class,
        StationsCommand.Revoke.class, StationsCommand.Suspend.class, StationsCommand.Reactivate.class})
final class StationsCommand implements Runnable {
    @Override
    public void run() {
        picocli.CommandLine.usage(this, System.out);
    }

    /** Where an Operator replica is and how to reach it (the token is the operator's: its fleet only). */
    static final class Operator {
        @Option(names = "--operator", required = true, description = "an Operator replica's base URL (https), e.g. https://operator.example.eu:8085")
        URI operator;
        @Mixin
        ApiCall.Options api;
        @Option(names = "--version-token", description = "a version token of an earlier write: read at least that write (X-Vpki-Version)")
        String version;

        ApiCall connect() {
            return api.connect(operator);
        }
    }

    static int printWrite(String what, ApiCall.Answer answer, int expected) {
        ApiCall.expect(expected, what, answer);
        System.out.println(answer.body());
        if (answer.version() != null) {
            System.out.println("version " + answer.version());
        }
        return 0;
    }

    @Command(name = "register", mixinStandardHelpOptions = true, description = {
            "Register stations in bulk, all or nothing: FILE is the API's JSON body, {\"stations\": [{\"canonicalId\": ...,",
            "\"curve\": ..., \"publicKey\": ..., \"permissions\": [...]}, ...]} (docs/operator.md)."})
    static final class Register implements Callable<Integer> {
        @Mixin
        Operator operator;
        @Parameters(paramLabel = "FILE", description = "the batch, JSON ('-' reads standard input)")
        String file;

        @Override
        public Integer call() throws Exception {
            String body = "-".equals(file)
                    ? new String(System.in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    : Files.readString(Path.of(file));
            return printWrite("registering the stations of " + file, operator.connect().postJson("/operator/v1/stations", body), 201);
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = {
            "One page of the canonical ids of the operator's fleet; the answer's nextCursor, given as --cursor, reads the next."})
    static final class ListStations implements Callable<Integer> {
        @Mixin
        Operator operator;
        @Option(names = "--cursor", description = "where the page starts: the nextCursor of the previous page")
        String cursor;
        @Option(names = "--limit", description = "about how many ids per page (the Operator's default: 1,000)")
        Integer limit;

        @Override
        public Integer call() {
            StringBuilder path = new StringBuilder("/operator/v1/stations");
            char separator = '?';
            if (cursor != null) {
                path.append(separator).append("cursor=")
                        .append(java.net.URLEncoder.encode(cursor, java.nio.charset.StandardCharsets.UTF_8));
                separator = '&';
            }
            if (limit != null) {
                path.append(separator).append("limit=").append(limit);
            }
            System.out
                    .println(ApiCall.expect(200, "listing the stations", operator.connect().get(path.toString(), operator.version)).body());
            return 0;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "One station of the fleet, with its latest EC.")
    static final class Show implements Callable<Integer> {
        @Mixin
        Operator operator;
        @Parameters(paramLabel = "ID", description = "the station's canonical id")
        String id;

        @Override
        public Integer call() {
            System.out.println(ApiCall
                    .expect(200, "reading station " + id, operator.connect().get("/operator/v1/stations/" + id, operator.version)).body());
            return 0;
        }
    }

    /** A change of a station's status: {@code POST /operator/v1/stations/{id}/{action}}. */
    abstract static class StatusChange implements Callable<Integer> {
        @Mixin
        Operator operator;
        @Parameters(paramLabel = "ID", description = "the station's canonical id")
        String id;
        private final String action;
        private final String doing;

        StatusChange(String action, String doing) {
            this.action = action;
            this.doing = doing;
        }

        @Override
        public Integer call() {
            return printWrite(doing + " station " + id, operator.connect().postJson("/operator/v1/stations/" + id + "/" + action, ""), 200);
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a station for good: its ECs stop validating, it cannot enrol.")
    static final class Revoke extends StatusChange {
        Revoke() {
            super("revoke", "revoking");
        }
    }

    @Command(name = "suspend", mixinStandardHelpOptions = true, description = "Suspend an active station (reactivate undoes it).")
    static final class Suspend extends StatusChange {
        Suspend() {
            super("suspend", "suspending");
        }
    }

    @Command(name = "reactivate", mixinStandardHelpOptions = true, description = "Reactivate a suspended station.")
    static final class Reactivate extends StatusChange {
        Reactivate() {
            super("reactivate", "reactivating");
        }
    }
}
