package eu.vpki.loadclient;

import org.springframework.security.crypto.bcrypt.BCrypt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code bootstrap secrets}; {@code bootstrap certify} runs the certification LocalClusterIT exercises against a real RCA. */
class BootstrapCommandTest {

    @Test
    void secrets_areWrittenOnce_privateToTheOwner_andTheCredentialsHoldTheTokensHash(@TempDir Path dir) throws Exception {
        Path secrets = dir.resolve("secrets");
        assertThat(new CommandLine(new LoadClient()).execute("bootstrap", "secrets", "--dir", secrets.toString(), "--operator-id", "op-7")).isZero();
        String token = Files.readString(secrets.resolve("operator-token"));
        String admin = Files.readString(secrets.resolve("admin-token"));

        assertThat(token).hasSizeGreaterThanOrEqualTo(32);
        assertThat(admin).isNotEqualTo(token).hasSizeGreaterThanOrEqualTo(16);
        String line = Files.readString(secrets.resolve("operator-credentials"));
        assertThat(line).startsWith("op-7:{bcrypt}$2a$10$").endsWith("\n").doesNotContain(token);
        assertThat(BCrypt.checkpw(sha256Hex(token), line.strip().substring("op-7:{bcrypt}".length()))).isTrue();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets.resolve("keystore-password")))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets.resolve("redis-password")))).isEqualTo("rw-------");
        assertThat(Files.readString(secrets.resolve("redis-password"))).hasSizeGreaterThanOrEqualTo(32).matches("[A-Za-z0-9_-]+");

        // a restart of the one-shot keeps them (the running services hold the old ones)
        assertThat(new CommandLine(new LoadClient()).execute("bootstrap", "secrets", "--dir", secrets.toString())).isZero();
        assertThat(Files.readString(secrets.resolve("operator-token"))).isEqualTo(token);
        assertThat(Files.readString(secrets.resolve("admin-token"))).isEqualTo(admin);
    }

    @Test
    void tls_issuesTheCaAndEachServer_forItsNames_thenKeepsWhatExists(@TempDir Path dir) throws Exception {
        Path tls = dir.resolve("tls");
        assertThat(new CommandLine(new LoadClient()).execute("bootstrap", "tls", "--dir", tls.toString(),
                "--server", "rca=rca.vpki.internal,10.0.0.5", "--server", "operator=10.0.1.100,10.1.1.100")).isZero();
        java.security.cert.X509Certificate ca = eu.vpki.common.etsi.crypto.ApiTlsCa.certificates(tls.resolve("ca.crt")).get(0);
        java.security.cert.X509Certificate operator = eu.vpki.common.etsi.crypto.ApiTlsCa.certificates(tls.resolve("operator.crt")).get(0);
        operator.verify(ca.getPublicKey());
        assertThat(operator.getSubjectAlternativeNames()).extracting(n -> String.valueOf(n.get(1))).containsExactly("10.0.1.100", "10.1.1.100");
        assertThat(eu.vpki.common.etsi.crypto.ApiTlsCa.certificates(tls.resolve("rca.crt")).get(0).getSubjectAlternativeNames())
                .extracting(n -> String.valueOf(n.get(1))).containsExactly("rca.vpki.internal", "10.0.0.5");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tls.resolve("rca.key")))).isEqualTo("rw-------");
        String rcaBefore = Files.readString(tls.resolve("rca.crt"));

        // again, with the operator's files deleted (rotation): the CA and the RCA's certificate are kept, the operator's is new
        Files.delete(tls.resolve("operator.crt"));
        Files.delete(tls.resolve("operator.key"));
        assertThat(new CommandLine(new LoadClient()).execute("bootstrap", "tls", "--dir", tls.toString(),
                "--server", "rca=rca.vpki.internal,10.0.0.5", "--server", "operator=10.0.1.100,10.1.1.100")).isZero();
        assertThat(eu.vpki.common.etsi.crypto.ApiTlsCa.certificates(tls.resolve("ca.crt")).get(0)).isEqualTo(ca);
        assertThat(Files.readString(tls.resolve("rca.crt"))).isEqualTo(rcaBefore);
        java.security.cert.X509Certificate renewed = eu.vpki.common.etsi.crypto.ApiTlsCa.certificates(tls.resolve("operator.crt")).get(0);
        assertThat(renewed).isNotEqualTo(operator);
        renewed.verify(ca.getPublicKey());
        assertThat(new CommandLine(new LoadClient()).execute("bootstrap", "tls", "--dir", tls.toString(), "--server", "bad")).isNotZero();
    }

    @Test
    void migrateCredentials_rewritesOldLines_soTheSameTokensStillVerify(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("operators");
        Files.write(file, List.of("# fleet A", "op-1:" + sha256Hex("token-1"), "", "op:2:" + sha256Hex("token-2").toUpperCase()));

        assertThat(new CommandLine(new LoadClient()).execute("bootstrap", "migrate-credentials", "--file", file.toString())).isZero();

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).isEqualTo("# fleet A");
        assertThat(lines.get(2)).isEmpty();
        assertThat(lines.get(1)).startsWith("op-1:{bcrypt}$2a$10$");
        assertThat(BCrypt.checkpw(sha256Hex("token-1"), lines.get(1).substring("op-1:{bcrypt}".length()))).isTrue();
        assertThat(BCrypt.checkpw(sha256Hex("token-2"), lines.get(3).substring("op:2:{bcrypt}".length()))).isTrue();
        assertThat(BCrypt.checkpw(sha256Hex("token-1"), lines.get(3).substring("op:2:{bcrypt}".length()))).isFalse();

        // a second run changes nothing
        assertThat(new CommandLine(new LoadClient()).execute("bootstrap", "migrate-credentials", "--file", file.toString())).isZero();
        assertThat(Files.readAllLines(file)).isEqualTo(lines);
    }

    private static String sha256Hex(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
