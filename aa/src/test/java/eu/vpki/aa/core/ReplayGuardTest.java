package eu.vpki.aa.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.HashAlgorithm;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplayGuardTest {
    private static final Instant T0 = Instant.parse("2026-11-20T12:00:00Z");

    private static byte[] fp(String s) {
        return HashAlgorithm.SHA256.digest(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void sameFingerprintInsideTheWindow_isAReplay() {
        ReplayGuard guard = new ReplayGuard(Duration.ofMinutes(5), 100);
        guard.checkAndRecord(fp("a"), T0);
        assertThatThrownBy(() -> guard.checkAndRecord(fp("a"), T0.plus(Duration.ofMinutes(5)).minusMillis(1)))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.REPLAYED_REQUEST));
        assertThatCode(() -> guard.checkAndRecord(fp("b"), T0)).doesNotThrowAnyException();
    }

    @Test
    void fingerprintsExpireAfterTheWindow_andTheCacheShrinks() {
        ReplayGuard guard = new ReplayGuard(Duration.ofMinutes(5), 100);
        guard.checkAndRecord(fp("a"), T0);
        guard.checkAndRecord(fp("b"), T0.plusSeconds(60));
        assertThat(guard.size()).isEqualTo(2);

        guard.checkAndRecord(fp("a"), T0.plus(Duration.ofMinutes(5)));

        assertThat(guard.size()).isEqualTo(2); // "a" expired and was recorded again; "b" is still inside
        assertThatThrownBy(() -> guard.checkAndRecord(fp("b"), T0.plus(Duration.ofMinutes(5)))).isInstanceOf(PkiException.class);
        guard.checkAndRecord(fp("c"), T0.plus(Duration.ofMinutes(20)));
        assertThat(guard.size()).isEqualTo(1);
    }

    @Test
    void boundedCapacity_evictsTheOldest_andCountsEvictionsInsideTheWindow() {
        ReplayGuard guard = new ReplayGuard(Duration.ofMinutes(5), 3);
        for (String s : new String[]{"a", "b", "c", "d"}) {
            guard.checkAndRecord(fp(s), T0);
        }
        assertThat(guard.size()).isEqualTo(3);
        assertThat(guard.earlyEvictions()).isEqualTo(1);
        assertThatCode(() -> guard.checkAndRecord(fp("a"), T0)).as("evicted early: not recognised").doesNotThrowAnyException();
        assertThatThrownBy(() -> guard.checkAndRecord(fp("d"), T0)).isInstanceOf(PkiException.class);
    }
}
