package eu.vpki.common.etsi.oer;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class EtsiTimeTest {
    @Test
    void epoch_isTime32Zero() {
        assertThat(EtsiTime.toTime32(Instant.parse("2004-01-01T00:00:00Z"))).isZero();
    }

    @Test
    void leapSecondsSince2004_areApplied() {
        // 5 leap seconds were inserted between 2004 and 2017 (none since)
        Instant t = Instant.parse("2026-11-20T12:00:00Z");
        assertThat(EtsiTime.toTime32(t)).isEqualTo(t.getEpochSecond() - EtsiTime.EPOCH_UNIX_SECONDS + 5);
        Instant before = Instant.parse("2005-12-31T23:59:59Z");
        assertThat(EtsiTime.toTime32(before)).isEqualTo(before.getEpochSecond() - EtsiTime.EPOCH_UNIX_SECONDS);
    }

    @Test
    void time32AndTime64_roundTrip() {
        for (String s : new String[]{"2004-01-01T00:00:00Z", "2012-07-01T00:00:00Z", "2019-06-01T10:11:12Z", "2026-11-20T23:00:00Z"}) {
            Instant t = Instant.parse(s);
            assertThat(EtsiTime.fromTime32(EtsiTime.toTime32(t))).isEqualTo(t);
            Instant micros = t.plusNanos(123_456_000);
            assertThat(EtsiTime.fromTime64(EtsiTime.toTime64(micros))).isEqualTo(micros);
        }
    }

    @Test
    void etsiTestSuiteValidity_decodesToTheDatesItMeans() {
        // CERT_IUT_A_RCA starts at Time32 0x1a561700 - documented by the suite as end of 2017
        assertThat(EtsiTime.fromTime32(0x1a5617_00L)).isEqualTo(Instant.parse("2017-12-31T23:59:55Z"));
    }
}
