package eu.vpki.shell.replication;

import eu.vpki.common.replication.ReplicationConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code vpki.replication.tls-*}: off unless a key store is given; the stores' password from a file or the environment. */
class ReplicationPropertiesTest {
    @TempDir
    Path dir;

    private static ReplicationProperties properties(Path keyStore, Path trustStore, Path passwordFile) {
        return new ReplicationProperties("vpki-ea", "ea-0", ReplicationConfig.Order.FIFO, ReplicationConfig.Propagation.ASYNC,
                "127.0.0.1", 7800, "TCPPING", "127.0.0.1[7800]", null, null, null, null, Duration.ofSeconds(5),
                Duration.ofSeconds(60), Duration.ofSeconds(2), Duration.ofSeconds(20), Duration.ofMillis(2), Duration.ofMillis(500), null,
                500_000, keyStore, trustStore, passwordFile);
    }

    @Test
    void withoutAKeyStore_theTransportIsPlain() {
        assertThat(properties(null, null, null).toConfig().tls()).isEqualTo(ReplicationConfig.Tls.OFF);
    }

    @Test
    void withAKeyStore_tlsUsesThePasswordFile_elseTheEnvironment() throws IOException {
        Path keyStore = Files.write(dir.resolve("ea-0.p12"), new byte[]{1});
        Path trustStore = Files.write(dir.resolve("trust.p12"), new byte[]{1});
        Path password = Files.writeString(dir.resolve("password"), "from-the-file\nignored\n");

        ReplicationConfig.Tls fromFile = properties(keyStore, trustStore, password).tls(Map.of());
        assertThat(fromFile.enabled()).isTrue();
        assertThat(fromFile.keyStore()).isEqualTo(keyStore);
        assertThat(fromFile.trustStore()).isEqualTo(trustStore);
        assertThat(fromFile.keyStorePassword()).isEqualTo("from-the-file");
        assertThat(fromFile.trustStorePassword()).isEqualTo("from-the-file");

        ReplicationConfig.Tls fromEnvironment = properties(keyStore, trustStore, null)
                .tls(Map.of(ReplicationProperties.TLS_PASSWORD_ENV, "from-the-environment"));
        assertThat(fromEnvironment.keyStorePassword()).isEqualTo("from-the-environment");
    }

    @Test
    void anIncompleteTlsConfiguration_failsNamingTheKey() throws IOException {
        Path keyStore = Files.write(dir.resolve("ea-0.p12"), new byte[]{1});
        Path trustStore = Files.write(dir.resolve("trust.p12"), new byte[]{1});
        assertThatThrownBy(() -> properties(keyStore, null, null).tls(Map.of()))
                .hasMessageContaining("vpki.replication.tls-trust-store must be set");
        assertThatThrownBy(() -> properties(null, trustStore, null).tls(Map.of()))
                .hasMessageContaining("tls-trust-store is set without vpki.replication.tls-key-store");
        assertThatThrownBy(() -> properties(keyStore, trustStore, null).tls(Map.of()))
                .hasMessageContaining("vpki.replication.tls-password-file").hasMessageContaining(ReplicationProperties.TLS_PASSWORD_ENV);
        assertThatThrownBy(() -> properties(dir.resolve("missing.p12"), trustStore, null).tls(Map.of()))
                .hasMessageContaining("cannot read " + dir.resolve("missing.p12"));
    }
}
