package eu.vpki.admin;

import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.DeploymentCredentials;
import eu.vpki.common.etsi.crypto.DeploymentTrust;
import org.springframework.security.crypto.bcrypt.BCrypt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code bootstrap secrets}; {@code bootstrap certify} runs the certification LocalClusterIT exercises against a real RCA. */
class BootstrapCommandTest {

    @Test
    void secrets_areWrittenOnce_privateToTheOwner_andTheCredentialsHoldTheTokensHash(@TempDir Path dir) throws Exception {
        Path secrets = dir.resolve("secrets");
        assertThat(new CommandLine(new AdminTool()).execute("bootstrap", "secrets", "--dir", secrets.toString(), "--operator-id", "op-7"))
                .isZero();
        String token = Files.readString(secrets.resolve("operator-token"));
        String admin = Files.readString(secrets.resolve("admin-token"));

        assertThat(token).hasSizeGreaterThanOrEqualTo(32);
        assertThat(admin).isNotEqualTo(token).hasSizeGreaterThanOrEqualTo(16);
        String line = Files.readString(secrets.resolve("operator-credentials"));
        assertThat(line).startsWith("op-7:{bcrypt}$2a$10$").endsWith("\n").doesNotContain(token);
        assertThat(BCrypt.checkpw(sha256Hex(token), line.strip().substring("op-7:{bcrypt}".length()))).isTrue();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets.resolve("keystore-password"))))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets.resolve("redis-password")))).isEqualTo("rw-------");
        assertThat(Files.readString(secrets.resolve("redis-password"))).hasSizeGreaterThanOrEqualTo(32).matches("[A-Za-z0-9_-]+");

        // a restart of the one-shot keeps them (the running services hold the old ones)
        assertThat(new CommandLine(new AdminTool()).execute("bootstrap", "secrets", "--dir", secrets.toString())).isZero();
        assertThat(Files.readString(secrets.resolve("operator-token"))).isEqualTo(token);
        assertThat(Files.readString(secrets.resolve("admin-token"))).isEqualTo(admin);
    }

    @Test
    void tls_issuesTheCaAndEachServer_forItsNames_thenKeepsWhatExists(@TempDir Path dir) throws Exception {
        Path tls = dir.resolve("tls");
        assertThat(new CommandLine(new AdminTool()).execute("bootstrap", "tls", "--dir", tls.toString(),
                "--server", "rca=rca.vpki.internal,10.0.0.5", "--server", "operator=10.0.1.100,10.1.1.100")).isZero();
        java.security.cert.X509Certificate ca = eu.vpki.common.etsi.crypto.ApiTlsCa.certificates(tls.resolve("ca.crt")).get(0);
        java.security.cert.X509Certificate operator = eu.vpki.common.etsi.crypto.ApiTlsCa.certificates(tls.resolve("operator.crt")).get(0);
        operator.verify(ca.getPublicKey());
        assertThat(operator.getSubjectAlternativeNames()).extracting(n -> String.valueOf(n.get(1))).containsExactly("10.0.1.100",
                "10.1.1.100");
        assertThat(eu.vpki.common.etsi.crypto.ApiTlsCa.certificates(tls.resolve("rca.crt")).get(0).getSubjectAlternativeNames())
                .extracting(n -> String.valueOf(n.get(1))).containsExactly("rca.vpki.internal", "10.0.0.5");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tls.resolve("rca.key")))).isEqualTo("rw-------");
        String rcaBefore = Files.readString(tls.resolve("rca.crt"));

        // again, with the operator's files deleted (rotation): the CA and the RCA's certificate are kept, the operator's is new
        Files.delete(tls.resolve("operator.crt"));
        Files.delete(tls.resolve("operator.key"));
        assertThat(new CommandLine(new AdminTool()).execute("bootstrap", "tls", "--dir", tls.toString(),
                "--server", "rca=rca.vpki.internal,10.0.0.5", "--server", "operator=10.0.1.100,10.1.1.100")).isZero();
        assertThat(eu.vpki.common.etsi.crypto.ApiTlsCa.certificates(tls.resolve("ca.crt")).get(0)).isEqualTo(ca);
        assertThat(Files.readString(tls.resolve("rca.crt"))).isEqualTo(rcaBefore);
        java.security.cert.X509Certificate renewed = eu.vpki.common.etsi.crypto.ApiTlsCa.certificates(tls.resolve("operator.crt")).get(0);
        assertThat(renewed).isNotEqualTo(operator);
        renewed.verify(ca.getPublicKey());
        assertThat(new CommandLine(new AdminTool()).execute("bootstrap", "tls", "--dir", tls.toString(), "--server", "bad")).isNotZero();
    }

    @Test
    void replication_issuesTheCaAndAKeyStorePerReplica_keepsWhatExists_andANewCaTrustsTheOldOneWhileRotating(@TempDir Path dir)
            throws Exception {
        Path old = dir.resolve("replication");
        assertThat(new CommandLine(new AdminTool()).execute("bootstrap", "replication", "--dir", old.toString(),
                "--replica", "ea-0,operator-0")).isZero();
        char[] password = Files.readAllLines(old.resolve("password")).get(0).toCharArray();
        // as a service reads them (vpki.replication.tls-*): the key store's certificate names its replica and chains to the trust store
        DeploymentCredentials ea0 = DeploymentCredentials.read(old.resolve("ea-0.p12"), password, old.resolve("trust.p12"), password,
                new SecureRandom());
        assertThat(ea0.replicaId()).isEqualTo("ea-0");
        assertThat(DeploymentCredentials.read(old.resolve("operator-0.p12"), password, old.resolve("trust.p12"), password,
                new SecureRandom()).replicaId()).isEqualTo("operator-0");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(old))).isEqualTo("rwx------");
        for (String file : List.of("deployment-ca.p12", "trust.p12", "ea-0.p12", "operator-0.p12", "password")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(old.resolve(file)))).as(file).isEqualTo("rw-------");
        }
        byte[] operatorStore = Files.readAllBytes(old.resolve("operator-0.p12"));

        // again with ea-0's key store deleted (its rotation): the CA and operator-0's store are kept, ea-0 gets a new certificate
        Files.delete(old.resolve("ea-0.p12"));
        assertThat(new CommandLine(new AdminTool()).execute("bootstrap", "replication", "--dir", old.toString(),
                "--replica", "ea-0,operator-0")).isZero();
        assertThat(Files.readAllBytes(old.resolve("operator-0.p12"))).isEqualTo(operatorStore);
        DeploymentCredentials renewed = DeploymentCredentials.read(old.resolve("ea-0.p12"), password, old.resolve("trust.p12"), password,
                new SecureRandom());
        assertThat(renewed.certificate()).isNotEqualTo(ea0.certificate());

        // the CA's rotation: a new CA whose trust store holds both, with the same password (a replica reads both stores with one)
        Path next = dir.resolve("replication-next");
        assertThat(new CommandLine(new AdminTool()).execute("bootstrap", "replication", "--dir", next.toString(),
                "--replica", "ea-0,operator-0", "--also-trust", old.toString())).isZero();
        assertThat(Files.readAllLines(next.resolve("password")).get(0).toCharArray()).isEqualTo(password);
        assertThat(DeploymentTrust.read(next.resolve("trust.p12"), password).authorities()).hasSize(2);
        // a replica still holding the old CA's key store is accepted by the new trust store, and one of the new CA by the old
        // replicas' trust store only once that holds the new CA too: the step order of docs/security.md
        assertThat(DeploymentCredentials.read(old.resolve("ea-0.p12"), password, next.resolve("trust.p12"), password,
                new SecureRandom()).replicaId()).isEqualTo("ea-0");
        assertThat(DeploymentCredentials.read(next.resolve("ea-0.p12"), password, next.resolve("trust.p12"), password,
                new SecureRandom()).replicaId()).isEqualTo("ea-0");
        assertThatThrownBy(() -> DeploymentCredentials.read(next.resolve("ea-0.p12"), password, old.resolve("trust.p12"), password,
                new SecureRandom())).isInstanceOf(PkiException.class);
        // the rotation's last step: the new CA alone
        assertThat(new CommandLine(new AdminTool()).execute("bootstrap", "replication", "--dir", next.toString(),
                "--replica", "ea-0,operator-0")).isZero();
        assertThat(DeploymentTrust.read(next.resolve("trust.p12"), password).authorities()).hasSize(1);
        assertThatThrownBy(() -> DeploymentCredentials.read(old.resolve("ea-0.p12"), password, next.resolve("trust.p12"), password,
                new SecureRandom())).isInstanceOf(PkiException.class);
        assertThat(new CommandLine(new AdminTool()).execute("bootstrap", "replication", "--dir", next.toString(),
                "--replica", "not a replica id")).isNotZero();
    }

    @Test
    void migrateCredentials_rewritesOldLines_soTheSameTokensStillVerify(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("operators");
        Files.write(file, List.of("# fleet A", "op-1:" + sha256Hex("token-1"), "", "op:2:" + sha256Hex("token-2").toUpperCase()));

        assertThat(new CommandLine(new AdminTool()).execute("bootstrap", "migrate-credentials", "--file", file.toString())).isZero();

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).isEqualTo("# fleet A");
        assertThat(lines.get(2)).isEmpty();
        assertThat(lines.get(1)).startsWith("op-1:{bcrypt}$2a$10$");
        assertThat(BCrypt.checkpw(sha256Hex("token-1"), lines.get(1).substring("op-1:{bcrypt}".length()))).isTrue();
        assertThat(BCrypt.checkpw(sha256Hex("token-2"), lines.get(3).substring("op:2:{bcrypt}".length()))).isTrue();
        assertThat(BCrypt.checkpw(sha256Hex("token-1"), lines.get(3).substring("op:2:{bcrypt}".length()))).isFalse();

        // a second run changes nothing
        assertThat(new CommandLine(new AdminTool()).execute("bootstrap", "migrate-credentials", "--file", file.toString())).isZero();
        assertThat(Files.readAllLines(file)).isEqualTo(lines);
    }

    private static String sha256Hex(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
