package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;

/**
 * Real requests of one station to the authorities of {@link TestPki#fixed()}, made at
 * {@link TestPki#NOW}: the seeds of the fuzz corpora. The station's keys are fixed too
 * ({@link TestPki#fixedKey}), so an authority set up with {@link #STATION_ID} and
 * {@link #canonicalKey()} accepts them in every run.
 */
public final class FixedRequests {
    /** The station's canonical id (its itsId in an initial enrolment). */
    public static final String STATION_ID = "VIN-FUZZ000000000001";
    /** A request whose answer {@code validationResponse} seeds are (its AES key and request hash are fixed). */
    public static final OutgoingRequest VALIDATION_REQUEST = new OutgoingRequest(new byte[1],
            Arrays.copyOf("vpki fuzz aes key".getBytes(StandardCharsets.US_ASCII), 16),
            Arrays.copyOf("vpki fuzz request".getBytes(StandardCharsets.US_ASCII), 16));

    private static final DataEncryption ENCRYPTION = new DataEncryption(RANDOM);

    private FixedRequests() {
    }

    /** The station's canonical key (registered by its operator). */
    public static EtsiKeyPair canonicalKey() {
        return TestPki.fixedKey("station-canonical");
    }

    /** An initial enrolment request to the fixed EA, for a new key, asking for the EC permission only. */
    public static OutgoingRequest enrolment() {
        EtsiKeyPair newKey = TestPki.fixedKey("station-new-ec");
        var request = new EnrolmentMessages.EcRequest(STATION_ID.getBytes(StandardCharsets.US_ASCII), newKey.publicKey(), null,
                SubjectAttributes.permissions(List.of(PsidSsp.bitmap(Psids.SECURED_CERTIFICATE_REQUEST, CertificateProfiles.EC_SSP))));
        return EnrolmentMessages.initialRequest(request, new SoftwareSigner(newKey, RANDOM), new SoftwareSigner(canonicalKey(), RANDOM),
                TestPki.fixed().ea.asEncryptionRecipient(), NOW, ENCRYPTION);
    }

    /** An authorization request to the fixed AA for CAM, signed with {@link TestPki#fixedEc()}. */
    public static OutgoingRequest authorization(AuthorizationMessages.Protection protection) {
        TestPki pki = TestPki.fixed();
        EtsiKeyPair atKey = TestPki.fixedKey("station-at");
        var request = new AuthorizationMessages.AtRequest(atKey.publicKey(), null,
                SubjectAttributes.permissions(List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc))));
        return AuthorizationMessages.request(request, new SoftwareSigner(atKey, RANDOM), TestPki.fixedEc(),
                new SoftwareSigner(TestPki.fixedKey("station-ec"), RANDOM), pki.ea, pki.aa.asEncryptionRecipient(), protection, NOW, RANDOM,
                ENCRYPTION);
    }

    /** The validation request the fixed AA sends the fixed EA for {@link #authorization} with full protection. */
    public static OutgoingRequest validation() {
        TestPki pki = TestPki.fixed();
        OutgoingRequest authorization = authorization(AuthorizationMessages.Protection.FULL);
        var aa = new eu.vpki.common.etsi.ts103097.DecryptionIdentity(pki.aaEncKey, pki.aa.hashedId8(), pki.aa.sha256());
        var received = AuthorizationMessages.parseRequest(DecryptedRequest.decrypt(authorization.body(), aa, ENCRYPTION));
        return AuthorizationValidationMessages.request(received, pki.aaSigner(), pki.aa, pki.ea.asEncryptionRecipient(), NOW, ENCRYPTION);
    }
}
