package eu.vpki.aa.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.SubjectAttributes;
import eu.vpki.common.etsi.ts103097.GeographicRegion;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.ts103097.Validity;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AtPolicyTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);
    private static final PsidSsp CAM = PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc);
    private static final PsidSsp DENM = PsidSsp.bitmap(Psids.DENM, (byte) 0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff);

    private static SubjectAttributes perms(PsidSsp... p) {
        return SubjectAttributes.permissions(List.of(p));
    }

    @Test
    void permissions_areConfirmedAndRequested_bitmapsNarrowedToCommonBits() {
        PsidSsp camNarrow = PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0x0f, (byte) 0xf0);
        var grant = AtPolicy.DEFAULT.grant(perms(CAM), perms(camNarrow, DENM), PKI.aa, NOW);
        assertThat(grant.permissions()).containsExactly(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0x0f, (byte) 0xf0));
    }

    @Test
    void permissions_nothingRequested_takesWhatTheEaConfirmed() {
        assertThat(AtPolicy.DEFAULT.grant(perms(), perms(CAM, DENM), PKI.aa, NOW).permissions()).containsExactly(CAM, DENM);
    }

    @Test
    void permissions_policyPsidsFilter_andDifferentSspVersionsDoNotMix() {
        AtPolicy camOnly = new AtPolicy(Duration.ofDays(7), AtPolicy.DEFAULT_BACKDATE, null, Set.of(Psids.CAM));
        assertThat(camOnly.grant(perms(CAM, DENM), perms(CAM, DENM), PKI.aa, NOW).permissions()).containsExactly(CAM);
        assertThat(AtPolicy.intersect(CAM, PsidSsp.bitmap(Psids.CAM, (byte) 0x02, (byte) 0xff, (byte) 0xfc))).isNull();
        assertThatThrownBy(() -> camOnly.grant(perms(DENM), perms(DENM), PKI.aa, NOW))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSIONS_NOT_ALLOWED));
    }

    @Test
    void permissions_beyondWhatTheAaMayIssue_areDropped() {
        // CAM SSP range 01fffc/ff0003: the two low bits of the last byte are fixed to 0
        PsidSsp camReservedBits = PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xff);
        var grant = AtPolicy.DEFAULT.grant(perms(camReservedBits, DENM), perms(camReservedBits, DENM), PKI.aa, NOW);
        assertThat(grant.permissions()).containsExactly(DENM);
    }

    @Test
    void validity_startsTheBackdateBeforeIssuance_andLastsNoLongerThanPolicyInTotal() {
        Validity v = AtPolicy.DEFAULT.grant(perms(CAM), perms(CAM), PKI.aa, NOW.plusMillis(400)).validity();
        assertThat(v.start()).isEqualTo(NOW.minus(Duration.ofMinutes(5)));
        assertThat(v.contains(NOW.minusSeconds(5))).as("usable by a station 5 s behind (leap seconds ignored)").isTrue();
        assertThat(Duration.between(v.start(), v.end())).isEqualTo(Duration.ofDays(7));

        AtPolicy none = new AtPolicy(Duration.ofHours(1), Duration.ZERO, null, Set.of());
        assertThat(none.grant(perms(CAM), perms(CAM), PKI.aa, NOW).validity()).isEqualTo(Validity.of(NOW, Validity.Unit.HOURS, 1));
        // never before the AA's own start (the AT must nest in the AA certificate)
        Instant aaStart = PKI.aa.validity().start();
        assertThat(AtPolicy.DEFAULT.grant(perms(CAM), perms(CAM), PKI.aa, aaStart.plusSeconds(10)).validity().start()).isEqualTo(aaStart);
        assertThatThrownBy(() -> new AtPolicy(Duration.ofMinutes(5), Duration.ofMinutes(5), null, Set.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void validity_defaultsToAWeekFromTheBackdatedStart_cutToWhatWasRequestedAndConfirmed() {
        assertThat(AtPolicy.DEFAULT.grant(perms(CAM), perms(CAM), PKI.aa, NOW).validity())
                .isEqualTo(Validity.of(NOW.minus(AtPolicy.DEFAULT_BACKDATE), Validity.Unit.HOURS, 168));
        var requested = new SubjectAttributes(Validity.of(NOW, Validity.Unit.HOURS, 24), null, null, List.of(CAM));
        assertThat(AtPolicy.DEFAULT.grant(requested, perms(CAM), PKI.aa, NOW).validity())
                .isEqualTo(Validity.of(NOW, Validity.Unit.HOURS, 24));
        var confirmed = new SubjectAttributes(Validity.of(NOW.minusSeconds(60), Validity.Unit.MINUTES, 90), null, null, List.of(CAM));
        assertThat(AtPolicy.DEFAULT.grant(perms(CAM), confirmed, PKI.aa, NOW).validity().end()).isEqualTo(NOW.plus(Duration.ofMinutes(89)));
    }

    @Test
    void validity_aLaterRequestedStartIsKept_upToOneValidityAhead() {
        var later = new SubjectAttributes(Validity.of(NOW.plus(Duration.ofDays(1)), Validity.Unit.HOURS, 24), null, null, List.of(CAM));
        assertThat(AtPolicy.DEFAULT.grant(later, perms(CAM), PKI.aa, NOW).validity()).isEqualTo(later.validity());
        var tooLate = new SubjectAttributes(Validity.of(NOW.plus(Duration.ofDays(8)), Validity.Unit.HOURS, 24), null, null, List.of(CAM));
        assertThatThrownBy(() -> AtPolicy.DEFAULT.grant(tooLate, perms(CAM), PKI.aa, NOW))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.VALIDITY_NOT_ALLOWED));
    }

    @Test
    void validity_neverOutlivesTheAa_roundedDownWhenNotExact() {
        Validity v = AtPolicy.DEFAULT.grant(perms(CAM), perms(CAM), PKI.aa, PKI.aa.validity().end().minusSeconds(3 * 24 * 3600 + 59))
                .validity();
        assertThat(v.end()).isBeforeOrEqualTo(PKI.aa.validity().end()).isAfter(PKI.aa.validity().end().minusSeconds(120));
        assertThat(AtPolicy.encode(NOW, 70_000).unit()).isEqualTo(Validity.Unit.MINUTES);
        assertThat(AtPolicy.encode(NOW, 70_000).end()).isEqualTo(NOW.plusSeconds(69_960));
    }

    @Test
    void region_confirmedWinsOverRequested_elsePolicyDefault() {
        var germany = new GeographicRegion.Countries(List.of(276));
        var france = new GeographicRegion.Countries(List.of(250));
        var requested = new SubjectAttributes(null, france, null, List.of(CAM));
        var confirmed = new SubjectAttributes(null, germany, null, List.of(CAM));
        assertThat(AtPolicy.DEFAULT.grant(requested, confirmed, PKI.aa, NOW).region()).isEqualTo(germany);
        assertThat(AtPolicy.DEFAULT.grant(requested, perms(CAM), PKI.aa, NOW).region()).isEqualTo(france);
        assertThat(new AtPolicy(Duration.ofDays(1), AtPolicy.DEFAULT_BACKDATE, germany, Set.of()).grant(perms(CAM), perms(CAM), PKI.aa, NOW)
                .region()).isEqualTo(germany);
        assertThat(AtPolicy.DEFAULT.grant(perms(CAM), perms(CAM), PKI.aa, NOW).region()).isNull();
    }
}
