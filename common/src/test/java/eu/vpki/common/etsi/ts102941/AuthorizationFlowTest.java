package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts103097.CertificateChecks;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.ts103097.Validity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AuthorizationFlowTest {
    private static final DataEncryption ENCRYPTION = new DataEncryption(RANDOM);
    private static final List<PsidSsp> CAM_DENM = List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc),
            PsidSsp.bitmap(Psids.DENM, (byte) 0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff));

    private final TestPki pki = new TestPki(EtsiCurve.NIST_P256);
    private final DecryptionIdentity aaIdentity = new DecryptionIdentity(pki.aaEncKey, pki.aa.hashedId8(), pki.aa.sha256());
    private final DecryptionIdentity eaIdentity = new DecryptionIdentity(pki.eaEncKey, pki.ea.hashedId8(), pki.ea.sha256());
    private final Function<HashedId8, Optional<EtsiCertificate>> ctlAas = id -> Optional
            .ofNullable(Map.of(pki.aa.hashedId8(), pki.aa).get(id));

    private OutgoingRequest stationRequest(EtsiCurve curve, EtsiKeyPair atKey, EtsiKeyPair ecKey, EtsiCertificate ec,
                                           AuthorizationMessages.Protection protection) {
        return AuthorizationMessages.request(
                new AuthorizationMessages.AtRequest(atKey.publicKey(), null, SubjectAttributes.permissions(CAM_DENM)),
                new SoftwareSigner(atKey, RANDOM), ec, new SoftwareSigner(ecKey, RANDOM), pki.ea, pki.aa.asEncryptionRecipient(),
                protection, NOW, RANDOM, ENCRYPTION);
    }

    @ParameterizedTest
    @CsvSource({"NIST_P256,true,true", "BRAINPOOL_P256R1,true,true", "BRAINPOOL_P384R1,true,false", "NIST_P256,false,true",
            "NIST_P256,false,false"})
    void pseudonymFlow_stationAaEaAaStation(EtsiCurve stationCurve, boolean pop, boolean encryptEcSignature) {
        EtsiKeyPair ecKey = EtsiKeyPair.generate(stationCurve, RANDOM);
        EtsiCertificate ec = pki.issueEc(ecKey);
        EtsiKeyPair atKey = EtsiKeyPair.generate(stationCurve, RANDOM);
        OutgoingRequest toAa = stationRequest(stationCurve, atKey, ecKey, ec,
                new AuthorizationMessages.Protection(pop, encryptEcSignature));

        // AA: decrypt, check keyTag / PoP, forward to the EA
        DecryptedRequest atDecrypted = DecryptedRequest.decrypt(toAa.body(), aaIdentity, ENCRYPTION);
        AuthorizationMessages.ReceivedAtRequest received = AuthorizationMessages.parseRequest(atDecrypted);
        assertThat(received.eaId()).isEqualTo(pki.ea.hashedId8());
        assertThat(received.proofOfPossession()).isEqualTo(pop);
        assertThat(received.popGenerationTime()).isEqualTo(pop ? Optional.of(NOW.truncatedTo(ChronoUnit.MICROS)) : Optional.empty());
        assertThat(received.ecSignatureEncrypted()).isEqualTo(encryptEcSignature);
        assertThat(received.request().verificationKey()).isEqualTo(atKey.publicKey());
        OutgoingRequest toEa = AuthorizationValidationMessages.request(received, pki.aaSigner(), pki.aa, pki.ea.asEncryptionRecipient(),
                NOW, ENCRYPTION);

        // EA: check the AA, the EC signature, answer the confirmed permissions
        DecryptedRequest valDecrypted = DecryptedRequest.decrypt(toEa.body(), eaIdentity, ENCRYPTION);
        var validation = AuthorizationValidationMessages.parseRequest(valDecrypted, ctlAas, eaIdentity, ENCRYPTION);
        assertThat(validation.aa()).isEqualTo(pki.aa);
        assertThat(validation.ecSignature().signerDigest()).contains(ec.hashedId8());
        validation.ecSignature().requireSignedBy(ec);
        assertThat(validation.requested().appPermissions()).isEqualTo(CAM_DENM);
        byte[] valResponse = AuthorizationValidationMessages.response(valDecrypted, EtsiCodes.Validation.OK,
                SubjectAttributes.permissions(CAM_DENM), pki.eaSigner(), pki.ea, NOW, ENCRYPTION);

        // AA: read the EA's answer, issue the AT, answer the station
        var result = AuthorizationValidationMessages.readResponse(valResponse, toEa, pki.ea, ENCRYPTION);
        assertThat(result.ok()).isTrue();
        EtsiCertificate at = CertificateIssuer.issue(CertificateProfiles.authorizationTicket(Validity.of(NOW, Validity.Unit.HOURS, 168),
                received.request().verificationKey(), null, result.confirmed().orElseThrow().appPermissions(), null), pki.aa,
                pki.aaSigner());
        byte[] atResponse = AuthorizationMessages.response(atDecrypted, EtsiCodes.Authorization.OK, at, pki.aaSigner(), pki.aa, NOW,
                ENCRYPTION);

        // station: the AT carries its key and chains to the AA
        var atResult = AuthorizationMessages.readResponse(atResponse, toAa, pki.aa, ENCRYPTION);
        assertThat(atResult.ok()).isTrue();
        EtsiCertificate received_at = atResult.authorizationTicket().orElseThrow();
        assertThat(received_at.verificationKey()).isEqualTo(atKey.publicKey());
        CertificateChecks.checkIssuedBy(received_at, pki.aa, NOW);
    }

    @Test
    void aaNotInCtl_isRefusedByTheEa() {
        EtsiKeyPair ecKey = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        EtsiCertificate ec = pki.issueEc(ecKey);
        OutgoingRequest toAa = stationRequest(EtsiCurve.NIST_P256, EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM), ecKey, ec,
                AuthorizationMessages.Protection.FULL);
        var received = AuthorizationMessages.parseRequest(DecryptedRequest.decrypt(toAa.body(), aaIdentity, ENCRYPTION));
        OutgoingRequest toEa = AuthorizationValidationMessages.request(received, pki.aaSigner(), pki.aa, pki.ea.asEncryptionRecipient(),
                NOW, ENCRYPTION);
        DecryptedRequest valDecrypted = DecryptedRequest.decrypt(toEa.body(), eaIdentity, ENCRYPTION);
        assertThatThrownBy(() -> AuthorizationValidationMessages.parseRequest(valDecrypted, id -> Optional.empty(), eaIdentity, ENCRYPTION))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_TRUSTED));
    }

    @Test
    void ecSignatureByAnotherKey_failsAtTheEa() {
        EtsiKeyPair ecKey = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        EtsiCertificate ec = pki.issueEc(ecKey);
        EtsiCertificate otherEc = pki.issueEc(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM));
        OutgoingRequest toAa = stationRequest(EtsiCurve.NIST_P256, EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM), ecKey, ec,
                AuthorizationMessages.Protection.FULL);
        var received = AuthorizationMessages.parseRequest(DecryptedRequest.decrypt(toAa.body(), aaIdentity, ENCRYPTION));
        OutgoingRequest toEa = AuthorizationValidationMessages.request(received, pki.aaSigner(), pki.aa, pki.ea.asEncryptionRecipient(),
                NOW, ENCRYPTION);
        var validation = AuthorizationValidationMessages.parseRequest(DecryptedRequest.decrypt(toEa.body(), eaIdentity, ENCRYPTION),
                ctlAas, eaIdentity, ENCRYPTION);
        assertThatThrownBy(() -> validation.ecSignature().requireSignedBy(otherEc))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_SIGNER));
    }

    @Test
    void encryptedEcSignature_cannotBeReadByTheAa() {
        EtsiKeyPair ecKey = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        EtsiCertificate ec = pki.issueEc(ecKey);
        OutgoingRequest toAa = stationRequest(EtsiCurve.NIST_P256, EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM), ecKey, ec,
                AuthorizationMessages.Protection.FULL);
        DecryptedRequest atDecrypted = DecryptedRequest.decrypt(toAa.body(), aaIdentity, ENCRYPTION);
        // the EC's HashedId8 must not appear anywhere in what the AA can read
        assertThat(indexOf(atDecrypted.plaintext(), ec.hashedId8().bytes())).isEqualTo(-1);
        assertThat(indexOf(atDecrypted.plaintext(), ec.encoded())).isEqualTo(-1);
    }

    @Test
    void validationResponseRefusal_carriesTheCode() {
        EtsiKeyPair ecKey = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        OutgoingRequest toAa = stationRequest(EtsiCurve.NIST_P256, EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM), ecKey,
                pki.issueEc(ecKey), AuthorizationMessages.Protection.FULL);
        var received = AuthorizationMessages.parseRequest(DecryptedRequest.decrypt(toAa.body(), aaIdentity, ENCRYPTION));
        OutgoingRequest toEa = AuthorizationValidationMessages.request(received, pki.aaSigner(), pki.aa, pki.ea.asEncryptionRecipient(),
                NOW, ENCRYPTION);
        DecryptedRequest valDecrypted = DecryptedRequest.decrypt(toEa.body(), eaIdentity, ENCRYPTION);
        byte[] refusal = AuthorizationValidationMessages.response(valDecrypted, EtsiCodes.Validation.UNKNOWNITS, null, pki.eaSigner(),
                pki.ea, NOW, ENCRYPTION);
        var result = AuthorizationValidationMessages.readResponse(refusal, toEa, pki.ea, ENCRYPTION);
        assertThat(result.responseCode()).isEqualTo(EtsiCodes.Validation.UNKNOWNITS);
        assertThat(result.confirmed()).isEmpty();
        assertThat(EtsiCodes.Authorization.fromValidationCode(result.responseCode())).isEqualTo(EtsiCodes.Authorization.UNKNOWNITS);
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer : for (int i = 0; i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
