package eu.vpki.admin;

import eu.vpki.common.http.HttpClients;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.crypto.ApiTlsCa;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The first start of a PKI outside the local launcher (compose.yaml runs these as one-shot
 * containers): {@code secrets} writes the shared secrets once, {@code certify} has the running RCA
 * certify an EA and an AA whose keys it generates. Both keep what already exists, so a restart
 * changes nothing. The local launcher of the testbed module runs the same steps through
 * {@link RcaAdminClient}, {@link ReplicationTls} and {@link OperatorCredentialsFile}.
 */
@Command(name = "bootstrap", mixinStandardHelpOptions = true, description = "First start of a PKI: secrets, EA and AA certificates.", subcommands = {
        BootstrapCommand.Secrets.class, BootstrapCommand.Tls.class, BootstrapCommand.Replication.class, BootstrapCommand.Certify.class,
        BootstrapCommand.MigrateCredentials.class})
public final class BootstrapCommand implements Runnable {
    @Override
    public void run() {
        picocli.CommandLine.usage(this, System.out);
    }

    @Command(name = "secrets", mixinStandardHelpOptions = true, description = {
            "Write admin-token, keystore-password, redis-password, operator-token and operator-credentials into --dir (mode 0600),",
            "each only if it does not exist yet."})
    static final class Secrets implements Callable<Integer> {
        @Option(names = "--dir", required = true, description = "directory of the secret files")
        Path dir;
        @Option(names = "--operator-id", defaultValue = "demo-operator", description = "operator of the credentials (default ${DEFAULT-VALUE})")
        String operatorId;

        @Override
        public Integer call() {
            PkiSecrets.writeOnce(dir, operatorId, new SecureRandom());
            System.out.println("secrets in " + dir);
            return 0;
        }
    }

    @Command(name = "tls", mixinStandardHelpOptions = true, description = {
            "The TLS CA of the bearer-token APIs (RCA admin API, Operator API) and a server certificate per --server:",
            "--dir/ca.crt (what clients trust) and --dir/ca.key, --dir/<name>.crt (chain) and --dir/<name>.key (mode 0600).",
            "Keeps a CA and certificates that exist; delete a server's files to issue it a new certificate (rotation:",
            "docs/security.md)."})
    static final class Tls implements Callable<Integer> {
        @Option(names = "--dir", required = true, description = "directory of the CA and the certificates")
        Path dir;
        @Option(names = "--server", required = true, description = {"NAME=ADDRESS[,ADDRESS...]: a server certificate for the IPv4",
                "addresses and DNS names clients use, e.g. rca=rca.vpki.internal,10.0.1.10 (repeat the option)"})
        java.util.List<String> servers;
        @Option(names = "--validity", defaultValue = "P397D", description = "server certificates' validity (default ${DEFAULT-VALUE})")
        Duration validity;
        @Option(names = "--ca-validity", defaultValue = "P3650D", description = "the CA's validity (default ${DEFAULT-VALUE})")
        Duration caValidity;

        @Override
        public Integer call() throws IOException {
            SecureRandom random = new SecureRandom();
            java.time.Instant now = java.time.Instant.now().minus(Duration.ofMinutes(5));
            Path caCert = dir.resolve("ca.crt");
            Path caKey = dir.resolve("ca.key");
            ApiTlsCa ca;
            if (Files.isRegularFile(caCert) && Files.isRegularFile(caKey)) {
                ca = ApiTlsCa.read(caCert, caKey);
                System.out.println("TLS CA kept: " + caCert);
            } else {
                ca = ApiTlsCa.generate("vpki API TLS CA", now, caValidity, random);
                ca.write(caCert, caKey);
                System.out.println("TLS CA written: " + caCert + " (keep " + caKey + " offline once the servers have their certificates)");
            }
            for (String server : servers) {
                int eq = server.indexOf('=');
                if (eq <= 0 || eq == server.length() - 1) {
                    throw new IllegalArgumentException("--server NAME=ADDRESS[,ADDRESS...], got " + server);
                }
                String name = server.substring(0, eq);
                if (Files.isRegularFile(dir.resolve(name + ".crt")) && Files.isRegularFile(dir.resolve(name + ".key"))) {
                    System.out.println(name + ": certificate kept");
                    continue;
                }
                java.util.List<String> names = java.util.Arrays.stream(server.substring(eq + 1).split(",")).map(String::strip).toList();
                ApiTlsCa.Issued issued = ca.issueServer(name, names, now, validity, random, dir);
                System.out.println(name + ": " + issued.certificateChain() + " for " + names);
            }
            return 0;
        }
    }

    @Command(name = "replication", mixinStandardHelpOptions = true, description = {
            "The replication channel's credentials (mutual TLS between the EA and Operator replicas, commands signed by",
            "their origin): --dir/deployment-ca.p12 (the CA with its key: keep it offline), --dir/trust.p12, one",
            "--dir/<replica id>.p12 per --replica and --dir/password (of all of them), mode 0600 in a 0700 directory.",
            "Keeps a CA and key stores that exist; delete a replica's key store to issue it a new one; --also-trust for",
            "a trust store holding the old CA too while the CA is rotated (docs/security.md, \"JGroups channel\")."})
    static final class Replication implements Callable<Integer> {
        @Option(names = "--dir", required = true, description = "directory of the CA, the stores and their password")
        Path dir;
        @Option(names = "--replica", required = true, split = ",", description = {"replica ids (vpki.replication.replica-id), e.g.",
                "ea-0,ea-1,operator-0; each gets a key store with a certificate CN=<replica id>"})
        java.util.List<String> replicas;
        @Option(names = "--also-trust", description = {"the --dir of another deployment CA whose CA certificates go into",
                "--dir/trust.p12 too, and whose password a new --dir takes: the old CA while the CA is rotated"})
        java.util.List<Path> alsoTrust = java.util.List.of();
        @Option(names = "--validity", defaultValue = "P397D", description = "replica certificates' validity (default ${DEFAULT-VALUE})")
        Duration validity;
        @Option(names = "--ca-validity", defaultValue = "P3650D", description = "the CA's validity (default ${DEFAULT-VALUE})")
        Duration caValidity;

        @Override
        public Integer call() {
            ReplicationTls.write(dir, replicas, caValidity, validity, alsoTrust, new SecureRandom(),
                    System.out::println);
            return 0;
        }
    }

    @Command(name = "migrate-credentials", mixinStandardHelpOptions = true, description = {
            "Rewrite an Operator credentials file of old unsalted lines (operatorId:sha256hex) into salted bcrypt lines",
            "(operatorId:{bcrypt}...) in place, without the tokens: operators keep their tokens. Other lines are kept."})
    static final class MigrateCredentials implements Callable<Integer> {
        @Option(names = "--file", required = true, description = "the credentials file (vpki.operator.credentials-file)")
        Path file;

        @Override
        public Integer call() throws IOException {
            java.util.List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            java.util.List<String> migrated = OperatorCredentialsFile.migrate(lines);
            long changed = java.util.stream.IntStream.range(0, lines.size()).filter(i -> !lines.get(i).equals(migrated.get(i))).count();
            Path next = file.resolveSibling(file.getFileName() + ".migrating");
            Files.write(next, migrated, StandardCharsets.UTF_8);
            Files.move(next, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            System.out.println(changed + " line(s) of " + file + " migrated to {bcrypt}");
            return 0;
        }
    }

    @Command(name = "certify", mixinStandardHelpOptions = true, description = {
            "Fetch the RCA certificate into --out/rca.cert; generate the EA's and the AA's keys into --out/ea.p12 and",
            "--out/aa.p12 and have the RCA certify them (--out/ea.cert, --out/aa.cert) with the access points the CTL lists.",
            "Does nothing for an authority whose certificate is already there."})
    static final class Certify implements Callable<Integer> {
        @Option(names = "--rca", required = true, description = "RCA base URL (https)")
        URI rca;
        @Option(names = "--tls-ca", description = "CA certificate (PEM) of the RCA's TLS certificate, e.g. 'bootstrap tls''s ca.crt")
        Path tlsCa;
        @Option(names = "--secrets", required = true, description = "directory written by 'bootstrap secrets'")
        Path secrets;
        @Option(names = "--out", required = true, description = "where key stores and certificates go")
        Path out;
        @Option(names = "--ea-access-point", required = true, description = "the EA's enrolment URL (itsAccessPoint)")
        String eaAccessPoint;
        @Option(names = "--ea-validation-point", required = true, description = "the EA's authorization-validation URL (aaAccessPoint)")
        String eaValidationPoint;
        @Option(names = "--aa-access-point", required = true, description = "the AA's authorization URL (accessPoint)")
        String aaAccessPoint;
        @Option(names = "--ea-replicas", split = ",", description = {"further authorization-validation URLs of the EA's replicas:",
                "written to --out/aa-ea-replicas.properties as vpki.aa.ea.replicas.<EA HashedId8> for the AAs to import"})
        java.util.List<String> eaReplicas = java.util.List.of();
        @Option(names = "--curve", defaultValue = "nistP256", description = "EA and AA key curve (default ${DEFAULT-VALUE})")
        String curve;
        @Option(names = "--wait", defaultValue = "PT3M", description = "how long to wait for the RCA to answer (default ${DEFAULT-VALUE})")
        Duration wait;

        @Override
        public Integer call() throws Exception {
            String adminToken = Files.readString(secrets.resolve("admin-token")).strip();
            RcaAdminClient admin = new RcaAdminClient(HttpClients.http11(Duration.ofSeconds(2)).trustingPemCa(tlsCa).build(), rca,
                    adminToken);
            Files.createDirectories(out);
            Files.write(out.resolve("rca.cert"), admin.rcaCertificate(wait));
            char[] password = Files.readString(secrets.resolve("keystore-password")).strip().toCharArray();
            SecureRandom random = new SecureRandom();
            EtsiCurve c = EtsiCurve.parse(curve);
            EtsiCertificate ea = certifyOnce(admin, random, c, password, "EA", "ea",
                    Map.of("itsAccessPoint", eaAccessPoint, "aaAccessPoint", eaValidationPoint));
            certifyOnce(admin, random, c, password, "AA", "aa", Map.of("accessPoint", aaAccessPoint));
            Files.writeString(out.resolve("aa-ea-replicas.properties"), eaReplicas.isEmpty()
                    ? ""
                    : "vpki.aa.ea.replicas." + ea.hashedId8().toHex() + "=" + String.join(",", eaReplicas) + "\n");
            return 0;
        }

        private EtsiCertificate certifyOnce(RcaAdminClient admin, SecureRandom random, EtsiCurve c, char[] password, String type,
                                            String name, Map<String, String> accessPoints)
                throws IOException {
            Path cert = out.resolve(name + ".cert");
            if (Files.isRegularFile(cert)) {
                System.out.println(type + " certificate already in " + cert);
                return EtsiCertificate.decode(Files.readAllBytes(cert));
            }
            EtsiCertificate issued = admin.certify(random, c, type, "vpki " + type, out.resolve(name + ".p12"),
                    password, name + "-signing", name + "-encryption", accessPoints);
            Files.write(cert, issued.encoded());
            System.out.println(type + " " + issued.hashedId8().toHex() + " certified: " + cert);
            return issued;
        }
    }
}
