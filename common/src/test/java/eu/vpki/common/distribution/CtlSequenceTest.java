package eu.vpki.common.distribution;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class CtlSequenceTest {
    private static final Instant T = Instant.parse("2026-11-20T12:00:00Z");

    @Test
    void next_wrapsAfter255() {
        assertThat(CtlSequence.next(0)).isEqualTo(1);
        assertThat(CtlSequence.next(254)).isEqualTo(255);
        assertThat(CtlSequence.next(255)).isZero();
    }

    @Test
    void follows_isSerialNumberOrder() {
        assertThat(CtlSequence.follows(6, 5)).isTrue();
        assertThat(CtlSequence.follows(0, 255)).isTrue();
        assertThat(CtlSequence.follows(126, 255)).isTrue();
        assertThat(CtlSequence.follows(5, 5)).isFalse();
        assertThat(CtlSequence.follows(4, 5)).isFalse();
        assertThat(CtlSequence.follows(255, 0)).isFalse();
        assertThat(CtlSequence.follows(133, 5)).isFalse();
    }

    @Test
    void supersedes_acceptsALaterListOnlyOnceTheHeldOneExpired() {
        Instant heldNext = T.plusSeconds(3600);
        assertThat(CtlSequence.supersedes(3, T.plusSeconds(10), 100, T, heldNext, T.plusSeconds(20))).isFalse();
        assertThat(CtlSequence.supersedes(3, T.plusSeconds(10), 100, T, heldNext, heldNext)).isTrue();
        assertThat(CtlSequence.supersedes(3, T.minusSeconds(10), 100, T, heldNext, heldNext)).isFalse();
    }
}
