package eu.vpki.common.etsi.ts103097;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ValidityTest {
    static final Instant ISSUED = Instant.parse("2026-11-24T12:00:00.750Z");
    static final Instant ISSUER_START = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void backdatedStart_isTheMarginBeforeIssuance_inWholeSeconds() {
        assertThat(Validity.backdatedStart(ISSUED, Duration.ofMinutes(5), ISSUER_START)).isEqualTo(Instant.parse("2026-11-24T11:55:00Z"));
        assertThat(Validity.backdatedStart(ISSUED, Duration.ZERO, ISSUER_START)).isEqualTo(Instant.parse("2026-11-24T12:00:00Z"));
    }

    @Test
    void backdatedStart_neverPrecedesTheIssuersStart() {
        Instant justAfterIssuerStart = ISSUER_START.plusSeconds(30);
        assertThat(Validity.backdatedStart(justAfterIssuerStart, Duration.ofMinutes(5), ISSUER_START)).isEqualTo(ISSUER_START);
    }

    @Test
    void backdatedStart_survivesTime32EncodingUnchanged() {
        Instant start = Validity.backdatedStart(ISSUED, Duration.ofSeconds(90), ISSUER_START);
        assertThat(Validity.ofSeconds(start, 3_600).start()).isEqualTo(start);
    }

    @Test
    void negativeBackdate_isRefused() {
        assertThatThrownBy(() -> Validity.backdatedStart(ISSUED, Duration.ofSeconds(-1), ISSUER_START))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
