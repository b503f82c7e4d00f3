package eu.vpki.admin;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** {@code vpki-admin authorities}: the RCA admin API ({@code docs/pki-bootstrap.md}) without curl: list, certify, revoke. */
@Command(name = "authorities", mixinStandardHelpOptions = true, description = "The EAs and AAs the Root CA certified (RCA admin API).", subcommands = {
        AuthoritiesCommand.ListAuthorities.class, AuthoritiesCommand.Certify.class, AuthoritiesCommand.Revoke.class})
final class AuthoritiesCommand implements Runnable {
    @Override
    public void run() {
        picocli.CommandLine.usage(this, System.out);
    }

    /** Where the RCA is and how to reach it. */
    static final class Rca {
        @Option(names = "--rca", required = true, description = "the RCA's base URL (https), e.g. https://rca.example.eu:8081")
        URI rca;
        @Mixin
        ApiCall.Options api;

        ApiCall connect() {
            return api.connect(rca);
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Every EA and AA the RCA certified, oldest first, with revocations.")
    static final class ListAuthorities implements Callable<Integer> {
        @Mixin
        Rca rca;
        @Option(names = "--json", description = "print the API's JSON as it is")
        boolean json;

        @Override
        public Integer call() {
            ApiCall.Answer answer = ApiCall.expect(200, "listing the authorities", rca.connect().get("/admin/authorities"));
            System.out.print(json ? answer.body() + "\n" : table(answer.json()));
            return 0;
        }

        static String table(JsonNode authorities) {
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("TYPE", "NAME", "HASHEDID8", "VALID FROM", "VALID UNTIL", "REVOKED", "ACCESS POINTS"));
            for (JsonNode a : authorities) {
                String points = List.of("itsAccessPoint", "aaAccessPoint", "accessPoint").stream()
                        .filter(k -> a.hasNonNull(k) && !a.get(k).asText().isEmpty()).map(k -> a.get(k).asText())
                        .collect(Collectors.joining(" "));
                rows.add(List.of(a.path("type").asText(), a.path("name").asText("-"), a.path("hashedId8").asText(),
                        a.path("validFrom").asText(), a.path("validUntil").asText(),
                        a.path("revoked").asBoolean() ? "yes " + a.path("revokedAt").asText() : "no", points.isEmpty() ? "-" : points));
            }
            return Tables.render(rows);
        }
    }

    @Command(name = "certify", mixinStandardHelpOptions = true, description = {
            "Have the RCA certify an EA or AA, either from the CaCertificateRequest that 'vpki-admin ceremony' wrote",
            "(--request) or from its public keys (--verification-key, --encryption-key). Writes the certificate (COER) to --out",
            "and prints its HashedId8. For keys generated into a PKCS#12 store, 'bootstrap certify' does all of it."})
    static final class Certify implements Callable<Integer> {
        @Mixin
        Rca rca;
        @Option(names = "--type", required = true, description = "EA or AA")
        String type;
        @Option(names = "--name", description = "the certificate's name (hostname form); with --request, default: the requested one")
        String name;
        @ArgGroup(exclusive = true, multiplicity = "1")
        Source source;
        @Option(names = "--its-access-point", description = "EA: its enrolment URL (itsAccessPoint)")
        String itsAccessPoint;
        @Option(names = "--aa-access-point", description = "EA: its authorization-validation URL (aaAccessPoint)")
        String aaAccessPoint;
        @Option(names = "--access-point", description = "AA: its authorization URL (accessPoint)")
        String accessPoint;
        @Option(names = "--validity-days", description = "validity asked for (default: the RCA's; with --request, the requested one)")
        Integer validityDays;
        @Option(names = "--out", required = true, description = "where the certificate (COER) goes")
        Path out;

        static final class Source {
            @Option(names = "--request", required = true, description = "the CaCertificateRequest (COER), e.g. ceremony/ea-request.oer")
            Path request;
            @ArgGroup(exclusive = false)
            Keys keys;
        }

        static final class Keys {
            @Option(names = "--verification-key", required = true, description = "the signing public key, compressed point in hex")
            String verificationKey;
            @Option(names = "--encryption-key", required = true, description = "the encryption public key, compressed point in hex")
            String encryptionKey;
            @Option(names = "--curve", required = true, description = "the verification key's curve (nistP256, brainpoolP256r1, brainpoolP384r1)")
            String curve;
            @Option(names = "--encryption-curve", description = "the encryption key's curve (default: --curve)")
            String encryptionCurve;
        }

        @Override
        public Integer call() throws Exception {
            Map<String, String> points = new LinkedHashMap<>();
            putIfSet(points, "itsAccessPoint", itsAccessPoint);
            putIfSet(points, "aaAccessPoint", aaAccessPoint);
            putIfSet(points, "accessPoint", accessPoint);
            ApiCall call = rca.connect();
            ApiCall.Answer answer;
            if (source.request != null) {
                Map<String, String> query = new LinkedHashMap<>();
                query.put("type", type);
                putIfSet(query, "name", name);
                query.putAll(points);
                if (validityDays != null) {
                    query.put("validityDays", validityDays.toString());
                }
                String q = query.entrySet().stream()
                        .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                        .collect(Collectors.joining("&"));
                answer = call.postBytes("/admin/authorities/ca-certificate-request?" + q, "application/x-its-request",
                        Files.readAllBytes(source.request));
            } else {
                ObjectNode body = ApiCall.JSON.createObjectNode();
                body.put("type", type);
                if (name != null) {
                    body.put("name", name);
                }
                body.put("curve", source.keys.curve);
                body.put("verificationKey", source.keys.verificationKey);
                body.put("encryptionCurve", source.keys.encryptionCurve == null ? source.keys.curve : source.keys.encryptionCurve);
                body.put("encryptionKey", source.keys.encryptionKey);
                points.forEach(body::put);
                if (validityDays != null) {
                    body.put("validityDays", validityDays.intValue());
                }
                answer = call.postJson("/admin/authorities", ApiCall.JSON.writeValueAsString(body));
            }
            JsonNode issued = ApiCall.expect(201, "certifying the " + type, answer).json();
            if (out.toAbsolutePath().getParent() != null) {
                Files.createDirectories(out.toAbsolutePath().getParent());
            }
            Files.write(out, Base64.getDecoder().decode(issued.path("certificate").asText()));
            System.out.println(issued.path("type").asText() + " " + issued.path("hashedId8").asText() + " certified until "
                    + issued.path("validUntil").asText() + ": " + out);
            return 0;
        }

        private static void putIfSet(Map<String, String> map, String key, String value) {
            if (value != null && !value.isBlank()) {
                map.put(key, value);
            }
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = {
            "Revoke an EA or AA: it leaves the CTL and enters the CRL, both issued and pushed to the DCs before the answer.",
            "Revoking twice changes nothing."})
    static final class Revoke implements Callable<Integer> {
        @Mixin
        Rca rca;
        @Parameters(paramLabel = "HASHEDID8", description = "the authority certificate's HashedId8 (16 hex digits, 'authorities list')")
        String hashedId8;
        @Option(names = "--reason", description = "why, for the audit log")
        String reason;

        @Override
        public Integer call() {
            ObjectNode body = ApiCall.JSON.createObjectNode();
            if (reason != null) {
                body.put("reason", reason);
            }
            JsonNode revoked = ApiCall.expect(200, "revoking " + hashedId8,
                    rca.connect().postJson("/admin/authorities/" + hashedId8 + "/revoke", ApiCall.JSON.writeValueAsString(body))).json();
            System.out.println(revoked.path("type").asText() + " " + revoked.path("hashedId8").asText() + " revoked at "
                    + revoked.path("revokedAt").asText());
            return 0;
        }
    }
}
