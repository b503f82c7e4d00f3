package eu.vpki.ea.testing;

import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.AuthorizationValidationMessages;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.station.StationMessages;

import java.security.SecureRandom;
import java.time.Instant;

/** The AA side of validation, as the tests drive it: decrypts a station's AT request and forwards it to the EA. */
public final class SimulatedAa {
    private static final DataEncryption ENCRYPTION = new DataEncryption(new SecureRandom());
    private final TestPki pki;

    public SimulatedAa(TestPki pki) {
        this.pki = pki;
    }

    /** The AuthorizationValidationRequest the AA would send the EA for this station request. */
    public OutgoingRequest forward(StationMessages.Request atRequest, EtsiCertificate ea, Instant now) {
        DecryptionIdentity aa = new DecryptionIdentity(pki.aaEncKey, pki.aa.hashedId8(), pki.aa.sha256());
        AuthorizationMessages.ReceivedAtRequest received = AuthorizationMessages.parseRequest(
                DecryptedRequest.decrypt(atRequest.body(), aa, ENCRYPTION));
        return AuthorizationValidationMessages.request(received, pki.aaSigner(), pki.aa, ea.asEncryptionRecipient(), now, ENCRYPTION);
    }

    public AuthorizationValidationMessages.ValidationResult read(byte[] body, OutgoingRequest request, EtsiCertificate ea) {
        return AuthorizationValidationMessages.readResponse(body, request, ea, ENCRYPTION);
    }
}
