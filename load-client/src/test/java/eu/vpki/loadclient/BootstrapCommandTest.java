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

        // a restart of the one-shot keeps them (the running services hold the old ones)
        assertThat(new CommandLine(new LoadClient()).execute("bootstrap", "secrets", "--dir", secrets.toString())).isZero();
        assertThat(Files.readString(secrets.resolve("operator-token"))).isEqualTo(token);
        assertThat(Files.readString(secrets.resolve("admin-token"))).isEqualTo(admin);
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
