package eu.vpki.common.etsi.validation;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts102941.Crl;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.TestPki;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrustStoreTest {
    private final TestPki pki = new TestPki(EtsiCurve.NIST_P256);
    private final RcaCtl ctl = new RcaCtl(true, 1, NOW.plusSeconds(86_400), List.of(
            new CtlEntry.Ea(pki.ea, "http://127.0.0.1:8083/ea/enrolment", "http://127.0.0.1:8083/ea/validation"),
            new CtlEntry.Aa(pki.aa, "http://127.0.0.1:8085/aa/authorization")), List.of());

    @Test
    void authorizationTicket_validatesThroughTheCtl() {
        TrustStore trust = TrustStore.fromCtl(pki.root, ctl, new Crl(NOW, NOW.plusSeconds(86_400), List.of()));
        EtsiCertificate at = pki.issueAt(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM));
        assertThat(trust.validate(at, NOW)).containsExactly(at, pki.aa, pki.root);
        assertThat(trust.requireAuthority(pki.ea.hashedId8(), NOW)).isEqualTo(pki.ea);
    }

    @Test
    void revokedAa_invalidatesItsTickets() {
        TrustStore trust = TrustStore.fromCtl(pki.root, ctl, new Crl(NOW, NOW.plusSeconds(86_400), List.of(pki.aa.hashedId8())));
        EtsiCertificate at = pki.issueAt(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM));
        assertThatThrownBy(() -> trust.validate(at, NOW)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CERTIFICATE_REVOKED));
        assertThatThrownBy(() -> trust.requireAuthority(pki.aa.hashedId8(), NOW)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CERTIFICATE_REVOKED));
    }

    @Test
    void aaMissingFromTheCtl_isNotTrusted() {
        RcaCtl onlyEa = new RcaCtl(true, 2, NOW.plusSeconds(86_400), List.of(ctl.additions().get(0)), List.of());
        TrustStore trust = TrustStore.fromCtl(pki.root, onlyEa, null);
        EtsiCertificate at = pki.issueAt(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM));
        assertThatThrownBy(() -> trust.validate(at, NOW)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_ISSUER));
        assertThatThrownBy(() -> trust.requireAuthority(pki.aa.hashedId8(), NOW)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_TRUSTED));
    }

    @Test
    void ctlEntryFromAnotherRoot_isLeftOut() {
        TestPki other = new TestPki(EtsiCurve.NIST_P256);
        RcaCtl mixed = new RcaCtl(true, 3, NOW.plusSeconds(86_400), List.of(new CtlEntry.Aa(other.aa, "http://127.0.0.1:9/aa/x")),
                List.of());
        TrustStore trust = TrustStore.fromCtl(pki.root, mixed, null);
        assertThat(trust.authority(other.aa.hashedId8())).isEmpty();
    }

    @Test
    void certificateFromAnUntrustedRoot_isRefused() {
        TestPki other = new TestPki(EtsiCurve.NIST_P256);
        TrustStore trust = TrustStore.fromCtl(pki.root, ctl, null);
        assertThatThrownBy(() -> trust.validate(other.root, NOW)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_TRUSTED));
    }

    @Test
    void expiredAndNotYetValid_areRefusedWithTheirOwnCodes() {
        TrustStore trust = TrustStore.fromCtl(pki.root, ctl, null);
        EtsiCertificate at = pki.issueAt(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM));
        assertThatThrownBy(() -> trust.validate(at, NOW.plusSeconds(200 * 3600))).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CERTIFICATE_EXPIRED));
        assertThatThrownBy(() -> trust.validate(at, Instant.parse("2020-01-01T00:00:00Z"))).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CERTIFICATE_NOT_YET_VALID));
    }
}
