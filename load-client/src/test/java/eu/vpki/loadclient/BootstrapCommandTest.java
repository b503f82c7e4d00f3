package eu.vpki.loadclient;

import eu.vpki.loadclient.cluster.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

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
        assertThat(Files.readString(secrets.resolve("operator-credentials"))).isEqualTo("op-7:" + LocalCluster.sha256Hex(token) + "\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets.resolve("keystore-password")))).isEqualTo("rw-------");

        // a restart of the one-shot keeps them (the running services hold the old ones)
        assertThat(new CommandLine(new LoadClient()).execute("bootstrap", "secrets", "--dir", secrets.toString())).isZero();
        assertThat(Files.readString(secrets.resolve("operator-token"))).isEqualTo(token);
        assertThat(Files.readString(secrets.resolve("admin-token"))).isEqualTo(admin);
    }
}
