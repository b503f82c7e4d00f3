package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.oer.EtsiTime;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.SignedMessage;
import eu.vpki.common.etsi.ts103097.TestPki;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrustListsTest {
    private static final Instant NEXT = Instant.parse("2026-11-27T12:00:00Z");

    @ParameterizedTest
    @EnumSource(value = EtsiCurve.class)
    void fullCtl_roundTripsWithEveryEntryKind(EtsiCurve curve) {
        TestPki pki = new TestPki(curve);
        RcaCtl ctl = new RcaCtl(true, 7, NEXT, List.of(
                new CtlEntry.Ea(pki.ea, "http://127.0.0.1:8083/ea/enrolment", "http://127.0.0.1:8083/ea/authorization-validation"),
                new CtlEntry.Aa(pki.aa, "http://127.0.0.1:8085/aa/authorization"),
                new CtlEntry.Dc("http://127.0.0.1:8082/", List.of(pki.root.hashedId8()))), List.of());
        byte[] signed = TrustLists.signCtl(ctl, NOW, pki.rootSigner(), pki.root);

        RcaCtl read = TrustLists.readCtl(signed, pki.root);
        assertThat(read.full()).isTrue();
        assertThat(read.sequence()).isEqualTo(7);
        assertThat(read.nextUpdate()).isEqualTo(NEXT);
        assertThat(read.enrolmentAuthorities()).singleElement().satisfies(e -> {
            assertThat(e.certificate()).isEqualTo(pki.ea);
            assertThat(e.itsAccessPoint()).isEqualTo("http://127.0.0.1:8083/ea/enrolment");
            assertThat(e.aaAccessPoint()).isEqualTo("http://127.0.0.1:8083/ea/authorization-validation");
        });
        assertThat(read.authorizationAuthorities()).singleElement()
                .satisfies(a -> assertThat(a.accessPoint()).endsWith("/aa/authorization"));
        assertThat(read.distributionCentres()).singleElement()
                .satisfies(d -> assertThat(d.certificates()).containsExactly(pki.root.hashedId8()));

        SignedMessage m = SignedMessage.parse(signed);
        assertThat(m.psid()).isEqualTo(Psids.CTL);
        assertThat(m.signerDigest()).contains(pki.root.hashedId8());
    }

    @Test
    void ctlContent_encodesVersionAsUnconstrainedInteger() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        byte[] signed = TrustLists.signCtl(new RcaCtl(true, 1, NEXT, List.of(), List.of()), NOW, pki.rootSigner(), pki.root);
        byte[] payload = SignedMessage.parse(signed).requirePayload();
        // EtsiTs102941Data: version 01, choice certificateTrustListRca (index 6 -> 0x86), ToBeSignedRcaCtl:
        // extension preamble 00, version 01 01, nextUpdate Time32 (4 bytes), isFullCtl ff, ctlSequence 01, 0 commands (01 00)
        long next = EtsiTime.toTime32(NEXT);
        String expected = "0186" + "00" + "0101" + String.format("%08x", next) + "ff" + "01" + "0100";
        assertThat(HexFormat.of().formatHex(payload)).isEqualTo(expected);
    }

    @Test
    void crl_roundTripsAndEncodesVersionAsUnconstrainedInteger() {
        TestPki pki = new TestPki(EtsiCurve.BRAINPOOL_P256R1);
        Crl crl = new Crl(NOW, NEXT, List.of(pki.aa.hashedId8()));
        byte[] signed = TrustLists.signCrl(crl, NOW, pki.rootSigner(), pki.root);
        Crl read = TrustLists.readCrl(signed, pki.root);
        assertThat(read).isEqualTo(crl);
        assertThat(read.isRevoked(pki.aa.hashedId8())).isTrue();
        assertThat(read.isRevoked(pki.ea.hashedId8())).isFalse();
        byte[] payload = SignedMessage.parse(signed).requirePayload();
        assertThat(Arrays.copyOf(payload, 5)).isEqualTo(new byte[]{0x01, (byte) 0x84, 0x00, 0x01, 0x01});
        assertThat(SignedMessage.parse(signed).psid()).isEqualTo(Psids.CRL);
    }

    @Test
    void ctlSignedByAnotherRoot_isRefused() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        TestPki other = new TestPki(EtsiCurve.NIST_P256);
        byte[] signed = TrustLists.signCtl(new RcaCtl(true, 1, NEXT, List.of(), List.of()), NOW, other.rootSigner(), other.root);
        assertThatThrownBy(() -> TrustLists.readCtl(signed, pki.root)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_SIGNER));
    }

    @Test
    void crlIsNotAcceptedAsCtl() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        byte[] crl = TrustLists.signCrl(new Crl(NOW, NEXT, List.of()), NOW, pki.rootSigner(), pki.root);
        assertThatThrownBy(() -> TrustLists.readCtl(crl, pki.root)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.UNEXPECTED_CONTENT));
    }

    @Test
    void deltaCtl_carriesDeletions() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        RcaCtl delta = new RcaCtl(false, 8, NEXT, List.of(), List.of(new CtlDelete.Certificate(pki.aa.hashedId8()),
                new CtlDelete.Dc("http://127.0.0.1:8082/")));
        RcaCtl read = TrustLists.readCtl(TrustLists.signCtl(delta, NOW, pki.rootSigner(), pki.root), pki.root);
        assertThat(read.full()).isFalse();
        assertThat(read.deletions()).containsExactly(new CtlDelete.Certificate(pki.aa.hashedId8()),
                new CtlDelete.Dc("http://127.0.0.1:8082/"));
    }

    @Test
    void accessPointWithoutPath_isRefused() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        assertThatThrownBy(() -> new CtlEntry.Aa(pki.aa, "http://127.0.0.1:8085"))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }
}
