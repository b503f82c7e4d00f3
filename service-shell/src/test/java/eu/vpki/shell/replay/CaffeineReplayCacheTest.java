package eu.vpki.shell.replay;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.testing.ManualClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CaffeineReplayCacheTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-24T12:00:00Z"));
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private static byte[] fingerprint(long n) {
        return ByteBuffer.allocate(32).putLong(n).putLong(~n).array();
    }

    @Test
    void aFingerprint_isFirstSeenOnce_thenAReplay_untilItsRetentionEnds() {
        CaffeineReplayCache cache = new CaffeineReplayCache("t", Duration.ofMinutes(5), 100, CaffeineReplayCache.WhenFull.EVICT, clock,
                registry);
        assertThat(cache.firstSeen(fingerprint(1))).isTrue();
        assertThat(cache.firstSeen(fingerprint(1))).isFalse();
        assertThat(cache.firstSeen(fingerprint(2))).isTrue();
        clock.advance(Duration.ofMinutes(5).minusMillis(1));
        assertThat(cache.firstSeen(fingerprint(1))).as("still inside the retention").isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(cache.firstSeen(fingerprint(1))).as("retention over").isTrue();
        assertThat(registry.get("cache.gets").tag("cache", "t").tag("result", "hit").functionCounter().count()).isEqualTo(2);
    }

    @Test
    void onlyTheFirst16Bytes_makeTheKey() {
        CaffeineReplayCache cache = new CaffeineReplayCache("t", Duration.ofMinutes(5), 100, CaffeineReplayCache.WhenFull.EVICT, clock,
                registry);
        byte[] a = fingerprint(7);
        byte[] b = fingerprint(7);
        b[20] ^= 1;
        assertThat(cache.firstSeen(a)).isTrue();
        assertThat(cache.firstSeen(b)).isFalse();
    }

    @Test
    void refusingCache_fullOfLiveEntries_refusesNewRequests_butStillRecognisesReplays() {
        CaffeineReplayCache cache = new CaffeineReplayCache("ea", Duration.ofMinutes(5), 3, CaffeineReplayCache.WhenFull.REFUSE, clock,
                registry);
        for (long n = 0; n < 3; n++) {
            assertThat(cache.firstSeen(fingerprint(n))).isTrue();
        }
        assertThatThrownBy(() -> cache.firstSeen(fingerprint(99))).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL_ERROR));
        assertThat(cache.firstSeen(fingerprint(1))).as("a replay of a held fingerprint is still a replay").isFalse();
        clock.advance(Duration.ofMinutes(6));
        assertThat(cache.firstSeen(fingerprint(99))).as("room again once entries expired").isTrue();
        assertThat(cache.earlyEvictions()).isZero();
    }

    @Test
    void evictingCache_dropsEntriesForCapacity_andCountsThem() {
        CaffeineReplayCache cache = new CaffeineReplayCache("aa", Duration.ofMinutes(5), 10, CaffeineReplayCache.WhenFull.EVICT, clock,
                registry);
        for (long n = 0; n < 50; n++) {
            assertThat(cache.firstSeen(fingerprint(n))).isTrue();
        }
        assertThat(cache.size()).isLessThanOrEqualTo(10);
        assertThat(cache.earlyEvictions()).isGreaterThanOrEqualTo(40);
        assertThat(registry.get("vpki.replay.early.evictions").tag("cache", "aa").counter().count()).isEqualTo(cache.earlyEvictions());
        clock.advance(Duration.ofMinutes(10));
        cache.firstSeen(fingerprint(1000));
        long early = cache.earlyEvictions();
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.earlyEvictions()).as("expiry is not an early eviction").isEqualTo(early);
    }

    @Test
    void badSettings_areRefused() {
        assertThatThrownBy(() -> new CaffeineReplayCache("x", Duration.ZERO, 10, CaffeineReplayCache.WhenFull.EVICT, clock, registry))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(
                () -> new CaffeineReplayCache("x", Duration.ofMinutes(1), 0, CaffeineReplayCache.WhenFull.REFUSE, clock, registry))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
