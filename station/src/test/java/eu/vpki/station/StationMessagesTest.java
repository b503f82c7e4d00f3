package eu.vpki.station;

import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts102941.EnrolmentMessages;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.ts103097.Validity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static org.assertj.core.api.Assertions.assertThat;

/** The station's requests as the authorities read them, and which answers change its current EC. */
class StationMessagesTest {
    private static final DataEncryption ENCRYPTION = new DataEncryption(RANDOM);
    private static final StationMessages MESSAGES = new StationMessages(RANDOM, ENCRYPTION);
    private final TestPki pki = new TestPki(EtsiCurve.NIST_P256);

    @ParameterizedTest
    @EnumSource(EtsiCurve.class)
    void enrolmentThenReEnrolment_eachEcForTheRequestedKey_becomesTheCurrentOne(EtsiCurve curve) {
        SimulatedStation station = SimulatedStation.generate("VIN-" + curve, curve, RANDOM);
        StationMessages.Request first = MESSAGES.enrolment(station, pki.ea, NOW);
        assertThat(decryptAsTheEa(first).request().itsId()).isEqualTo(station.canonicalIdBytes());
        assertThat(MESSAGES.readEnrolment(eaIssues(first, first.newKey().publicKey()), first, pki.ea).ok()).isTrue();
        assertThat(station.ecKey()).isEqualTo(first.newKey());
        EtsiCertificate ec = station.enrolmentCredential();

        StationMessages.Request again = MESSAGES.reEnrolment(station, pki.ea, NOW);
        assertThat(decryptAsTheEa(again).request().itsId()).isEqualTo(ec.hashedId8().bytes());
        MESSAGES.readEnrolment(eaIssues(again, again.newKey().publicKey()), again, pki.ea);

        assertThat(station.ecKey()).isEqualTo(again.newKey()).isNotEqualTo(first.newKey());
        assertThat(station.enrolmentCredential()).isNotEqualTo(ec);
    }

    @Test
    void anEcForAnotherKey_orARefusal_leavesTheStationAsItWas() {
        SimulatedStation station = SimulatedStation.generate("VIN-KEPT", EtsiCurve.NIST_P256, RANDOM);
        StationMessages.Request request = MESSAGES.enrolment(station, pki.ea, NOW);
        EtsiPublicKey other = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM).publicKey();

        assertThat(MESSAGES.readEnrolment(eaIssues(request, other), request, pki.ea).ok()).isTrue();
        assertThat(station.enrolled()).isFalse();

        byte[] refusal = EnrolmentMessages.response(decrypted(request), EtsiCodes.Enrolment.UNKNOWNITS, null, pki.eaSigner(), pki.ea, NOW,
                ENCRYPTION);
        assertThat(MESSAGES.readEnrolment(refusal, request, pki.ea).responseCode()).isEqualTo(EtsiCodes.Enrolment.UNKNOWNITS);
        assertThat(station.enrolled()).isFalse();
    }

    @Test
    void withPlaintext_reachesTheAuthorityAsGiven_andItsAnswerIsReadWithTheNewAesKey() {
        SimulatedStation station = SimulatedStation.generate("VIN-ALTERED", EtsiCurve.NIST_P256, RANDOM);
        EtsiKeyPair ecKey = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        station.enrolled(ecKey, pki.issueEc(ecKey));
        StationMessages.Request genuine = MESSAGES.authorization(station, pki.ea, pki.aa, SimulatedStation.CAM_DENM,
                AuthorizationMessages.Protection.FULL, NOW);
        byte[] altered = new byte[]{1, 2, 3};

        StationMessages.Request sent = MESSAGES.withPlaintext(genuine, altered, pki.aa);

        DecryptedRequest atTheAa = DecryptedRequest.decrypt(sent.body(),
                new DecryptionIdentity(pki.aaEncKey, pki.aa.hashedId8(), pki.aa.sha256()), ENCRYPTION);
        assertThat(atTheAa.plaintext()).isEqualTo(altered);
        assertThat(sent.newKey()).isEqualTo(genuine.newKey());
        byte[] refusal = AuthorizationMessages.response(atTheAa, EtsiCodes.Authorization.ITS_AA_BADCONTENTTYPE, null, pki.aaSigner(),
                pki.aa,
                NOW, ENCRYPTION);
        assertThat(MESSAGES.readAuthorization(refusal, sent, pki.aa).responseCode())
                .isEqualTo(EtsiCodes.Authorization.ITS_AA_BADCONTENTTYPE);
    }

    private DecryptedRequest decrypted(StationMessages.Request request) {
        return DecryptedRequest.decrypt(request.body(), new DecryptionIdentity(pki.eaEncKey, pki.ea.hashedId8(), pki.ea.sha256()),
                ENCRYPTION);
    }

    private EnrolmentMessages.ReceivedEcRequest decryptAsTheEa(StationMessages.Request request) {
        return EnrolmentMessages.parseRequest(decrypted(request));
    }

    /** The EA's answer: an EC certifying {@code key}. */
    private byte[] eaIssues(StationMessages.Request request, EtsiPublicKey key) {
        EtsiCertificate ec = CertificateIssuer.issue(CertificateProfiles.enrolmentCredential(Validity.of(NOW, Validity.Unit.YEARS, 1),
                key, null, null), pki.ea, pki.eaSigner());
        return EnrolmentMessages.response(decrypted(request), 0, ec, pki.eaSigner(), pki.ea, NOW, ENCRYPTION);
    }
}
