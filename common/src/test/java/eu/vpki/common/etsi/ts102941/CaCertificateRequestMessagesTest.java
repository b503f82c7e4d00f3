package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.CertificateTemplate;
import eu.vpki.common.etsi.ts103097.DataSigning;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.SignedMessage;
import eu.vpki.common.etsi.ts103097.SignerKind;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.ts103097.Validity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CaCertificateRequestMessagesTest {

    private static CertificateTemplate eaTemplate(EtsiKeyPair key, EtsiKeyPair enc) {
        return CertificateProfiles.enrolmentAuthority("ea.example.eu", Validity.of(NOW, Validity.Unit.YEARS, 2),
                key.publicKey(), enc.publicKey(), null);
    }

    @ParameterizedTest
    @EnumSource(EtsiCurve.class)
    void request_roundTripsEveryAttributeAndVerifiesProofOfPossession(EtsiCurve curve) {
        EtsiKeyPair key = EtsiKeyPair.generate(curve, RANDOM);
        EtsiKeyPair enc = EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM);
        CertificateTemplate template = eaTemplate(key, enc);
        byte[] message = CaCertificateRequestMessages.request(CaCertificateRequestMessages.CaRequest.fromTemplate(template),
                new SoftwareSigner(key, RANDOM), NOW);

        CaCertificateRequestMessages.ReceivedCaRequest received = CaCertificateRequestMessages.parseRequest(message);
        var r = received.request();
        assertThat(r.name()).isEqualTo("ea.example.eu");
        assertThat(r.verificationKey()).isEqualTo(key.publicKey());
        assertThat(r.encryptionKey()).isEqualTo(enc.publicKey());
        assertThat(r.validity()).isEqualTo(template.validity());
        assertThat(r.assuranceLevel()).isEqualTo(CertificateProfiles.CA_ASSURANCE);
        assertThat(r.appPermissions()).isEqualTo(template.appPermissions());
        assertThat(r.certIssuePermissions()).isEqualTo(template.certIssuePermissions());
        assertThat(received.generationTime()).isEqualTo(NOW);

        SignedMessage outer = SignedMessage.parse(message);
        assertThat(outer.psid()).isEqualTo(Psids.SECURED_CERTIFICATE_REQUEST);
        assertThat(outer.signerKind()).isEqualTo(SignerKind.SELF);
        // EtsiTs102941Data: version v1, then the CHOICE tag of caCertificateRequest (root alternative index 9)
        assertThat(Arrays.copyOf(outer.requirePayload(), 2)).containsExactly(0x01, 0x89);
    }

    @Test
    void minimalRequest_withOnlyKeys_roundTrips() {
        EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        var request = new CaCertificateRequestMessages.CaRequest(null, key.publicKey(), null, null, null, null, null, null);
        var received = CaCertificateRequestMessages.parseRequest(
                CaCertificateRequestMessages.request(request, new SoftwareSigner(key, RANDOM), NOW)).request();
        assertThat(received.name()).isNull();
        assertThat(received.encryptionKey()).isNull();
        assertThat(received.validity()).isNull();
        assertThat(received.appPermissions()).isEmpty();
    }

    @Test
    void requestSignedWithAnotherKey_failsProofOfPossession() {
        EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        EtsiKeyPair other = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        byte[] valid = CaCertificateRequestMessages.request(CaCertificateRequestMessages.CaRequest.fromTemplate(
                eaTemplate(key, other)), new SoftwareSigner(key, RANDOM), NOW);
        byte[] forged = DataSigning.sign(SignedMessage.parse(valid).requirePayload(), Psids.SECURED_CERTIFICATE_REQUEST, NOW,
                SignerKind.SELF, new SoftwareSigner(other, RANDOM), null);

        assertThatThrownBy(() -> CaCertificateRequestMessages.parseRequest(forged)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.PROOF_OF_POSSESSION_FAILED));
    }

    @Test
    void signingWithAKeyOtherThanTheRequestedOne_isRefusedOnTheSenderSide() {
        EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        EtsiKeyPair other = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        var request = CaCertificateRequestMessages.CaRequest.fromTemplate(eaTemplate(key, other));
        assertThatThrownBy(() -> CaCertificateRequestMessages.request(request, new SoftwareSigner(other, RANDOM), NOW))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }

    @Test
    void tamperedSignature_isRefused() {
        EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM);
        byte[] message = CaCertificateRequestMessages.request(CaCertificateRequestMessages.CaRequest.fromTemplate(
                eaTemplate(key, key)), new SoftwareSigner(key, RANDOM), NOW);
        byte[] tampered = message.clone();
        tampered[tampered.length - 1] ^= 0x01; // last byte of s
        assertThatThrownBy(() -> CaCertificateRequestMessages.parseRequest(tampered)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.PROOF_OF_POSSESSION_FAILED));
    }

    @Test
    void requestSignedByACertificate_isRefusedAsRekeyingIsNotSupported() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        byte[] valid = CaCertificateRequestMessages.request(CaCertificateRequestMessages.CaRequest.fromTemplate(
                eaTemplate(pki.eaKey, pki.eaEncKey)), pki.eaSigner(), NOW);
        byte[] byDigest = DataSigning.sign(SignedMessage.parse(valid).requirePayload(), Psids.SECURED_CERTIFICATE_REQUEST, NOW,
                SignerKind.DIGEST, pki.eaSigner(), pki.ea);
        assertThatThrownBy(() -> CaCertificateRequestMessages.parseRequest(byDigest)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.UNEXPECTED_CONTENT));
    }

    @Test
    void otherContent_isRefused() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        byte[] crl = TrustLists.signCrl(new Crl(NOW, NOW.plusSeconds(3600), java.util.List.of()), NOW, pki.rootSigner(), pki.root);
        assertThatThrownBy(() -> CaCertificateRequestMessages.parseRequest(crl)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.UNEXPECTED_CONTENT));
        assertThatThrownBy(() -> CaCertificateRequestMessages.parseRequest(new byte[]{1, 2, 3})).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isIn(ErrorCode.MALFORMED_ENCODING, ErrorCode.NON_CANONICAL_ENCODING));
    }

    @Test
    void receivedRequest_canBeCertifiedByTheRoot() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        EtsiKeyPair enc = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        var received = CaCertificateRequestMessages.parseRequest(CaCertificateRequestMessages.request(
                CaCertificateRequestMessages.CaRequest.fromTemplate(eaTemplate(key, enc)), new SoftwareSigner(key, RANDOM), NOW)).request();
        EtsiCertificate ea = CertificateIssuer.issue(CertificateProfiles.enrolmentAuthority(received.name(), received.validity(),
                received.verificationKey(), received.encryptionKey(), null), pki.root, pki.rootSigner());
        assertThat(ea.verificationKey()).isEqualTo(key.publicKey());
        assertThat(ea.name()).contains("ea.example.eu");
    }
}
