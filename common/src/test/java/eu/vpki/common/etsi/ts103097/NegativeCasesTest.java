package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad input to the ETSI core: each case gets its exact typed error, and nothing else escapes. */
class NegativeCasesTest {
    private final TestPki pki = new TestPki(EtsiCurve.NIST_P256);

    private static void assertCode(Runnable r, ErrorCode... codes) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isIn((Object[]) codes));
    }

    @Test
    void oversizeInput_isRefusedBeforeParsing() {
        byte[] huge = new byte[(1 << 20) + 1];
        assertCode(() -> EtsiCertificate.decode(huge), ErrorCode.OVERSIZE_INPUT);
        assertCode(() -> SignedMessage.parse(huge), ErrorCode.OVERSIZE_INPUT);
    }

    @Test
    void everyTruncationOfACertificate_isMalformed() {
        byte[] cert = pki.aa.encoded();
        for (int n = 0; n < cert.length; n++) {
            byte[] cut = Arrays.copyOf(cert, n);
            assertCode(() -> EtsiCertificate.decode(cut), ErrorCode.MALFORMED_ENCODING, ErrorCode.NON_CANONICAL_ENCODING);
        }
    }

    @Test
    void anExtensionAlternativeOfTheContentChoice_isMalformed_notALibraryException() {
        // found by EaEntryFuzzTest / TrustListIngestFuzzTest: Ieee1609Dot2Content choice 4 (an extension) with a
        // 2-byte open type; the OER parser accepts it, BouncyCastle's Ieee1609Dot2Content threw IllegalArgumentException
        byte[] data = {(byte) 0x99, (byte) 0x84, 0x02, 0x01, 0x14};
        assertCode(() -> SignedMessage.parse(data), ErrorCode.MALFORMED_ENCODING);
    }

    @Test
    void trailingBytes_areNotCanonical() {
        byte[] cert = Arrays.copyOf(pki.aa.encoded(), pki.aa.encodedLength() + 1);
        assertCode(() -> EtsiCertificate.decode(cert), ErrorCode.NON_CANONICAL_ENCODING);
    }

    @Test
    void randomBytes_neverEscapeAsAnotherException() {
        Random r = new Random(42);
        for (int i = 0; i < 500; i++) {
            byte[] garbage = new byte[1 + r.nextInt(300)];
            r.nextBytes(garbage);
            if (i % 2 == 0) {
                garbage[0] = (byte) 0x80; // looks like a certificate start more often
            }
            byte[] g = garbage;
            assertThatThrownBy(() -> EtsiCertificate.decode(g)).isInstanceOf(PkiException.class);
        }
    }

    @Test
    void flippedSignatureByte_inACertificate_isAnInvalidSignature() {
        EtsiCertificate at = pki.issueAt(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM));
        byte[] bytes = at.encoded();
        bytes[bytes.length - 5] ^= 0x04;
        EtsiCertificate tampered = EtsiCertificate.decode(bytes);
        assertCode(() -> CertificateChecks.checkIssuedBy(tampered, pki.aa, NOW), ErrorCode.INVALID_SIGNATURE);
    }

    @Test
    void signatureLabelledWithAnotherCurve_isAWrongCurve() {
        EtsiCertificate at = pki.issueAt(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM));
        byte[] bytes = at.encoded();
        // Signature ::= CHOICE tag (1) + r x-only (1 + 32) + s (32): relabel ecdsaNistP256Signature as brainpoolP256r1
        int tag = bytes.length - 66;
        assertThat(bytes[tag]).isEqualTo((byte) 0x80);
        bytes[tag] = (byte) 0x81;
        EtsiCertificate relabelled = EtsiCertificate.decode(bytes);
        assertCode(() -> CertificateChecks.checkIssuedBy(relabelled, pki.aa, NOW), ErrorCode.WRONG_CURVE);
    }

    @Test
    void wrongIssuer_isAnUnknownIssuer() {
        EtsiCertificate at = pki.issueAt(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM));
        assertCode(() -> CertificateChecks.checkIssuedBy(at, pki.ea, NOW), ErrorCode.UNKNOWN_ISSUER);
    }

    @Test
    void expiredAndNotYetValid_haveTheirOwnCodes() {
        EtsiCertificate at = pki.issueAt(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM));
        assertCode(() -> CertificateChecks.checkIssuedBy(at, pki.aa, NOW.plusSeconds(169 * 3600L)), ErrorCode.CERTIFICATE_EXPIRED);
        assertCode(() -> CertificateChecks.checkIssuedBy(at, pki.aa, NOW.minusSeconds(3600)), ErrorCode.CERTIFICATE_NOT_YET_VALID);
    }

    @Test
    void unknownPsid_isRefusedForAuthorizationTickets() {
        Psids.requireKnownForAuthorizationTickets(List.of(PsidSsp.of(Psids.CAM), PsidSsp.of(Psids.DENM)));
        assertCode(() -> Psids.requireKnownForAuthorizationTickets(List.of(PsidSsp.of(Psids.CAM), PsidSsp.of(99999))),
                ErrorCode.UNKNOWN_PSID);
    }

    @Test
    void pointNotOnTheCurve_isAnInvalidKey() {
        byte[] notOnCurve = new byte[33];
        notOnCurve[0] = 0x02;
        Arrays.fill(notOnCurve, 1, 33, (byte) 0xFF); // x >= p: no such point
        assertCode(() -> EtsiPublicKey.fromEncodedPoint(EtsiCurve.NIST_P256, notOnCurve), ErrorCode.INVALID_KEY);
        assertCode(() -> EtsiPublicKey.fromEncodedPoint(EtsiCurve.NIST_P256, new byte[10]), ErrorCode.INVALID_KEY);
    }

    @Test
    void unknownCurveName_isAnUnsupportedAlgorithm() {
        assertCode(() -> EtsiCurve.parse("secp521r1"), ErrorCode.UNSUPPORTED_ALGORITHM);
        assertThat(EtsiCurve.parse("nistP256")).isEqualTo(EtsiCurve.NIST_P256);
        assertThat(EtsiCurve.parse("brainpoolP384r1")).isEqualTo(EtsiCurve.BRAINPOOL_P384R1);
    }
}
