package eu.vpki.shell.replication;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RedisPropertiesTest {
    private static RedisProperties redis(String url, Path passwordFile) {
        return new RedisProperties(URI.create(url), 4, Duration.ofSeconds(1), passwordFile, Duration.ofSeconds(2), Duration.ofSeconds(15),
                Duration.ofMillis(250));
    }

    @Test
    void password_comesFromTheFile_elseTheEnvironment_elseNone() throws Exception {
        Path file = Files.writeString(Files.createTempFile("redis", ".pw"), "from-file\nignored\n");
        assertThat(redis("redis://127.0.0.1:6380", file).connectionUri(Map.of("VPKI_REDIS_PASSWORD", "from-env")))
                .isEqualTo(URI.create("redis://:from-file@127.0.0.1:6380"));
        assertThat(redis("redis://127.0.0.1:6380", null).connectionUri(Map.of("VPKI_REDIS_PASSWORD", "from-env")))
                .isEqualTo(URI.create("redis://:from-env@127.0.0.1:6380"));
        assertThat(redis("redis://vpki@127.0.0.1:6380", null).connectionUri(Map.of("VPKI_REDIS_PASSWORD", "p w")))
                .isEqualTo(URI.create("redis://vpki:p%20w@127.0.0.1:6380"));
        assertThat(redis("redis://127.0.0.1:6380", null).connectionUri(Map.of())).isEqualTo(URI.create("redis://127.0.0.1:6380"));
    }

    @Test
    void aPasswordInTheUrl_orAnEmptyFile_failsTheStart() throws Exception {
        assertThatThrownBy(() -> redis("redis://:secret@127.0.0.1:6380", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("vpki.redis.password-file");
        Path empty = Files.createTempFile("redis", ".pw");
        assertThatThrownBy(() -> redis("redis://127.0.0.1:6380", empty).connectionUri(Map.of())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("empty");
    }
}
