package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EnrolmentMessagesTest {
    private static final DataEncryption ENCRYPTION = new DataEncryption(RANDOM);
    private static final byte[] CANONICAL_ID = "VIN-WVW000000000001".getBytes(StandardCharsets.US_ASCII);

    static DecryptionIdentity eaIdentity(TestPki pki) {
        return new DecryptionIdentity(pki.eaEncKey, pki.ea.hashedId8(), pki.ea.sha256());
    }

    @ParameterizedTest
    @EnumSource(value = EtsiCurve.class)
    void initialEnrolment_roundTripsOnEveryStationCurve(EtsiCurve stationCurve) {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        EtsiKeyPair canonical = EtsiKeyPair.generate(stationCurve, RANDOM);
        EtsiKeyPair newKey = EtsiKeyPair.generate(stationCurve, RANDOM);
        var req = new EnrolmentMessages.EcRequest(CANONICAL_ID, newKey.publicKey(), null,
                SubjectAttributes.permissions(List.of(PsidSsp.bitmap(Psids.SECURED_CERTIFICATE_REQUEST, (byte) 0x01, (byte) 0xC0))));
        OutgoingRequest out = EnrolmentMessages.initialRequest(req, new SoftwareSigner(newKey, RANDOM),
                new SoftwareSigner(canonical, RANDOM), pki.ea.asEncryptionRecipient(), NOW, ENCRYPTION);

        // EA side
        DecryptedRequest decrypted = DecryptedRequest.decrypt(out.body(), eaIdentity(pki), ENCRYPTION);
        assertThat(decrypted.requestHash()).isEqualTo(out.requestHash());
        EnrolmentMessages.ReceivedEcRequest received = EnrolmentMessages.parseRequest(decrypted);
        assertThat(received.initial()).isTrue();
        assertThat(received.request().itsId()).isEqualTo(CANONICAL_ID);
        assertThat(received.request().verificationKey()).isEqualTo(newKey.publicKey());
        received.outerSignature().requireSelfSignedBy(canonical.publicKey(), ErrorCode.CANONICAL_KEY_MISMATCH);
        EtsiCertificate ec = pki.issueEc(newKey);
        byte[] response = EnrolmentMessages.response(decrypted, EtsiCodes.Enrolment.OK, ec, pki.eaSigner(), pki.ea, NOW, ENCRYPTION);

        // station side
        EnrolmentMessages.EcResult result = EnrolmentMessages.readResponse(response, out, pki.ea, ENCRYPTION);
        assertThat(result.ok()).isTrue();
        assertThat(result.enrolmentCredential()).contains(ec);
    }

    @Test
    void reEnrolment_isSignedByTheCurrentEc() {
        TestPki pki = new TestPki(EtsiCurve.BRAINPOOL_P256R1);
        EtsiKeyPair ecKey = EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM);
        EtsiCertificate currentEc = pki.issueEc(ecKey);
        EtsiKeyPair newKey = EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM);
        var req = new EnrolmentMessages.EcRequest(currentEc.hashedId8().bytes(), newKey.publicKey(), null,
                SubjectAttributes.permissions(List.of()));
        OutgoingRequest out = EnrolmentMessages.reEnrolmentRequest(req, new SoftwareSigner(newKey, RANDOM),
                new SoftwareSigner(ecKey, RANDOM), currentEc, pki.ea.asEncryptionRecipient(), NOW, ENCRYPTION);
        var received = EnrolmentMessages.parseRequest(DecryptedRequest.decrypt(out.body(), eaIdentity(pki), ENCRYPTION));
        assertThat(received.initial()).isFalse();
        assertThat(received.outerSignature().signerDigest()).contains(currentEc.hashedId8());
        received.outerSignature().requireSignedBy(currentEc);
    }

    @Test
    void refusal_carriesTheResponseCodeAndNoCertificate() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        EtsiKeyPair k = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        var req = new EnrolmentMessages.EcRequest(CANONICAL_ID, k.publicKey(), null, SubjectAttributes.permissions(List.of()));
        OutgoingRequest out = EnrolmentMessages.initialRequest(req, new SoftwareSigner(k, RANDOM), new SoftwareSigner(k, RANDOM),
                pki.ea.asEncryptionRecipient(), NOW, ENCRYPTION);
        DecryptedRequest decrypted = DecryptedRequest.decrypt(out.body(), eaIdentity(pki), ENCRYPTION);
        byte[] response = EnrolmentMessages.response(decrypted, EtsiCodes.Enrolment.UNKNOWNITS, null, pki.eaSigner(), pki.ea, NOW,
                ENCRYPTION);
        var result = EnrolmentMessages.readResponse(response, out, pki.ea, ENCRYPTION);
        assertThat(result.responseCode()).isEqualTo(EtsiCodes.Enrolment.UNKNOWNITS);
        assertThat(result.enrolmentCredential()).isEmpty();
    }

    @Test
    void popSignedByAnotherKey_isRefused() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        EtsiKeyPair claimed = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        EtsiKeyPair actual = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        var req = new EnrolmentMessages.EcRequest(CANONICAL_ID, claimed.publicKey(), null, SubjectAttributes.permissions(List.of()));
        // a forged request: the PoP signer differs from the requested key
        SoftwareSigner actualSigner = new SoftwareSigner(actual, RANDOM);
        eu.vpki.common.etsi.crypto.EtsiSigner lying = new eu.vpki.common.etsi.crypto.EtsiSigner() {
            @Override
            public eu.vpki.common.etsi.crypto.EtsiPublicKey publicKey() {
                return claimed.publicKey();
            }

            @Override
            public eu.vpki.common.etsi.crypto.EcdsaSignature signDigest(byte[] digest) {
                return actualSigner.signDigest(digest);
            }
        };
        OutgoingRequest out = EnrolmentMessages.initialRequest(req, lying, new SoftwareSigner(actual, RANDOM),
                pki.ea.asEncryptionRecipient(), NOW, ENCRYPTION);
        DecryptedRequest decrypted = DecryptedRequest.decrypt(out.body(), eaIdentity(pki), ENCRYPTION);
        assertThatThrownBy(() -> EnrolmentMessages.parseRequest(decrypted)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.PROOF_OF_POSSESSION_FAILED));
    }

    @Test
    void responseFromAnotherRequest_isRefusedByRequestHash() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        EtsiKeyPair k = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        var req = new EnrolmentMessages.EcRequest(CANONICAL_ID, k.publicKey(), null, SubjectAttributes.permissions(List.of()));
        OutgoingRequest out = EnrolmentMessages.initialRequest(req, new SoftwareSigner(k, RANDOM), new SoftwareSigner(k, RANDOM),
                pki.ea.asEncryptionRecipient(), NOW, ENCRYPTION);
        DecryptedRequest decrypted = DecryptedRequest.decrypt(out.body(), eaIdentity(pki), ENCRYPTION);
        DecryptedRequest other = new DecryptedRequest(decrypted.plaintext(), decrypted.aesKey(), new byte[16]);
        byte[] response = EnrolmentMessages.response(other, EtsiCodes.Enrolment.DENIEDREQUEST, null, pki.eaSigner(), pki.ea, NOW,
                ENCRYPTION);
        assertThatThrownBy(() -> EnrolmentMessages.readResponse(response, out, pki.ea, ENCRYPTION)).isInstanceOfSatisfying(
                PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.REQUEST_HASH_MISMATCH));
    }
}
