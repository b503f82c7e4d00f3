package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.HashAlgorithm;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataSigningTest {
    private static final byte[] PAYLOAD = "an EtsiTs102941Data would be here".getBytes(StandardCharsets.UTF_8);

    @ParameterizedTest
    @EnumSource(EtsiCurve.class)
    void signedByDigest_roundTripsAndVerifiesWithSignerCertificate(EtsiCurve curve) {
        TestPki pki = new TestPki(curve);
        byte[] signed = DataSigning.sign(PAYLOAD, Psids.SECURED_CERTIFICATE_REQUEST, NOW, SignerKind.DIGEST, pki.eaSigner(), pki.ea);
        SignedMessage m = SignedMessage.parse(signed);
        assertThat(m.requirePayload()).isEqualTo(PAYLOAD);
        assertThat(m.psid()).isEqualTo(Psids.SECURED_CERTIFICATE_REQUEST);
        assertThat(m.generationTime()).contains(NOW);
        assertThat(m.signerKind()).isEqualTo(SignerKind.DIGEST);
        assertThat(m.signerDigest()).contains(pki.ea.hashedId8());
        m.requireSignedBy(pki.ea);
        assertThat(m.verifiesWith(pki.aa)).isFalse();
    }

    @Test
    void signedWithCertificate_carriesTheCertificate() {
        TestPki pki = new TestPki(EtsiCurve.BRAINPOOL_P256R1);
        SignedMessage m = SignedMessage
                .parse(DataSigning.sign(PAYLOAD, Psids.CTL, NOW, SignerKind.CERTIFICATE, pki.rootSigner(), pki.root));
        assertThat(m.signerCertificate()).contains(pki.root);
        m.requireSignedBy(pki.root);
    }

    @Test
    void selfSigned_verifiesOnlyWithTheSigningKey() {
        EtsiKeyPair k = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        SignedMessage m = SignedMessage.parse(DataSigning.sign(PAYLOAD, 623, NOW, SignerKind.SELF, new SoftwareSigner(k, RANDOM), null));
        m.requireSelfSignedBy(k.publicKey(), ErrorCode.PROOF_OF_POSSESSION_FAILED);
        EtsiKeyPair other = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        assertThatThrownBy(() -> m.requireSelfSignedBy(other.publicKey(), ErrorCode.PROOF_OF_POSSESSION_FAILED))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PROOF_OF_POSSESSION_FAILED));
    }

    @Test
    void externalPayload_carriesOnlyTheHash() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        EtsiKeyPair ecKey = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        EtsiCertificate ec = pki.issueEc(ecKey);
        byte[] hash = HashAlgorithm.SHA256.digest(PAYLOAD);
        SignedMessage m = SignedMessage.parse(DataSigning.signExternalPayload(hash, 623, NOW, SignerKind.DIGEST,
                new SoftwareSigner(ecKey, RANDOM), ec));
        assertThat(m.payload()).isEmpty();
        assertThat(m.externalDataHash()).hasValueSatisfying(h -> assertThat(h).isEqualTo(hash));
        m.requireSignedBy(ec);
        assertThatThrownBy(m::requirePayload).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.UNEXPECTED_CONTENT));
    }

    @Test
    void flippedSignatureByte_failsWithInvalidSignature() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        byte[] signed = DataSigning.sign(PAYLOAD, 623, NOW, SignerKind.DIGEST, pki.aaSigner(), pki.aa);
        signed[signed.length - 1] ^= 0x01; // last byte of s
        SignedMessage m = SignedMessage.parse(signed);
        assertThatThrownBy(() -> m.requireSignedBy(pki.aa)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_SIGNATURE));
    }

    @Test
    void flippedPayloadByte_failsWithInvalidSignature() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        byte[] signed = DataSigning.sign(PAYLOAD, 623, NOW, SignerKind.DIGEST, pki.aaSigner(), pki.aa);
        int at = indexOf(signed, PAYLOAD);
        signed[at + 3] ^= 0x20;
        SignedMessage m = SignedMessage.parse(signed);
        assertThatThrownBy(() -> m.requireSignedBy(pki.aa)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_SIGNATURE));
    }

    @Test
    void otherSignerDigest_failsWithUnknownSigner() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        SignedMessage m = SignedMessage.parse(DataSigning.sign(PAYLOAD, 623, NOW, SignerKind.DIGEST, pki.aaSigner(), pki.aa));
        assertThatThrownBy(() -> m.requireSignedBy(pki.ea)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_SIGNER));
    }

    @Test
    void truncatedAndRandomBytes_failWithMalformedEncoding() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        byte[] signed = DataSigning.sign(PAYLOAD, 623, NOW, SignerKind.DIGEST, pki.aaSigner(), pki.aa);
        byte[] truncated = java.util.Arrays.copyOf(signed, signed.length - 10);
        assertThatThrownBy(() -> SignedMessage.parse(truncated)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isIn(ErrorCode.MALFORMED_ENCODING, ErrorCode.NON_CANONICAL_ENCODING));
        java.util.Random r = new java.util.Random(7);
        for (int i = 0; i < 200; i++) {
            byte[] garbage = new byte[1 + r.nextInt(400)];
            r.nextBytes(garbage);
            assertThatThrownBy(() -> SignedMessage.parse(garbage)).isInstanceOf(PkiException.class);
        }
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer : for (int i = 0; i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("payload not found");
    }
}
