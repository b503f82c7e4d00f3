package eu.vpki.station;

import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.HashAlgorithm;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.EnrolmentMessages;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts102941.SubjectAttributes;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.EncryptedMessage;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * The TS 102 941 messages of a {@link SimulatedStation}, without the transport: enrolment,
 * re-enrolment and authorization requests on the station's curve, each with the fresh key it asks a
 * certificate for, and the authorities' answers. The caller passes the time and the authority
 * certificates. {@link ObuProtocol} sends these requests over HTTP; the EA and AA tests hand them to
 * the services directly, and make deliberately bad ones with the two hooks named as such
 * ({@link #enrolmentSignedBy}, {@link #withPlaintext}).
 */
public final class StationMessages {
    private final SecureRandom random;
    private final DataEncryption encryption;

    /**
     * A request of {@code station}, ready to send, with the fresh key it asks a certificate for.
     *
     * @param message the body to POST and what is kept to read the answer
     */
    public record Request(SimulatedStation station, EtsiKeyPair newKey, OutgoingRequest message) {
        public byte[] body() {
            return message.body();
        }

        /** The same request sent as {@code other} (a re-encoded or altered copy a test sends in its place). */
        public Request withMessage(OutgoingRequest other) {
            return new Request(station, newKey, other);
        }
    }

    public StationMessages(SecureRandom random, DataEncryption encryption) {
        this.random = random;
        this.encryption = encryption;
    }

    // ---- enrolment ----

    /** An initial enrolment request to {@code ea} for the EC permissions ({@link SimulatedStation#EC_PERMISSIONS}). */
    public Request enrolment(SimulatedStation s, EtsiCertificate ea, Instant now) {
        return enrolment(s, ea, SubjectAttributes.permissions(SimulatedStation.EC_PERMISSIONS), now);
    }

    /** An initial enrolment request asking for {@code requested}: itsId = the canonical id, signed with the canonical key, PoP with a fresh key. */
    public Request enrolment(SimulatedStation s, EtsiCertificate ea, SubjectAttributes requested, Instant now) {
        return enrolmentSignedBy(s, s.canonicalKey(), ea, requested, now);
    }

    /**
     * Hook for deliberately bad requests: an initial enrolment request whose outer signature is made
     * with {@code signingKey} instead of the canonical key (a forgery, when it is another key).
     */
    public Request enrolmentSignedBy(SimulatedStation s, EtsiKeyPair signingKey, EtsiCertificate ea, SubjectAttributes requested,
                                     Instant now) {
        EtsiKeyPair newKey = EtsiKeyPair.generate(s.curve(), random);
        var request = new EnrolmentMessages.EcRequest(s.canonicalIdBytes(), newKey.publicKey(), null, requested);
        OutgoingRequest out = EnrolmentMessages.initialRequest(request, new SoftwareSigner(newKey, random),
                new SoftwareSigner(signingKey, random), ea.asEncryptionRecipient(), now, encryption);
        return new Request(s, newKey, out);
    }

    /**
     * A re-enrolment request of an enrolled station: itsId = its current EC's HashedId8, signed with
     * the current EC's key (signer digest), proof of possession with a fresh key.
     */
    public Request reEnrolment(SimulatedStation s, EtsiCertificate ea, Instant now) {
        EtsiCertificate current = requireEnrolled(s);
        EtsiKeyPair newKey = EtsiKeyPair.generate(s.curve(), random);
        var request = new EnrolmentMessages.EcRequest(current.hashedId8().bytes(), newKey.publicKey(), null,
                SubjectAttributes.permissions(SimulatedStation.EC_PERMISSIONS));
        OutgoingRequest out = EnrolmentMessages.reEnrolmentRequest(request, new SoftwareSigner(newKey, random),
                new SoftwareSigner(s.ecKey(), random), current, ea.asEncryptionRecipient(), now, encryption);
        return new Request(s, newKey, out);
    }

    /**
     * Reads the EA's answer to {@code request}; an EC it issued for the requested key becomes the
     * station's current one (the certificate chain is not checked here: {@link ObuProtocol} does).
     */
    public EnrolmentMessages.EcResult readEnrolment(byte[] body, Request request, EtsiCertificate ea) {
        EnrolmentMessages.EcResult result = EnrolmentMessages.readResponse(body, request.message(), ea, encryption);
        result.enrolmentCredential().filter(ec -> ec.verificationKey().equals(request.newKey().publicKey()))
                .ifPresent(ec -> request.station().enrolled(request.newKey(), ec));
        return result;
    }

    // ---- authorization ----

    /**
     * An authorization request of an enrolled station to {@code aa} naming {@code ea}: a fresh AT key,
     * signed with the current EC, with the proof of possession and the EC signature's encryption as
     * {@code protection} says.
     */
    public Request authorization(SimulatedStation s, EtsiCertificate ea, EtsiCertificate aa, List<PsidSsp> permissions,
                                 AuthorizationMessages.Protection protection, Instant now) {
        EtsiCertificate ec = requireEnrolled(s);
        EtsiKeyPair atKey = EtsiKeyPair.generate(s.curve(), random);
        var request = new AuthorizationMessages.AtRequest(atKey.publicKey(), null, SubjectAttributes.permissions(permissions));
        OutgoingRequest out = AuthorizationMessages.request(request, new SoftwareSigner(atKey, random), ec,
                new SoftwareSigner(s.ecKey(), random), ea, aa.asEncryptionRecipient(), protection, now, random, encryption);
        return new Request(s, atKey, out);
    }

    /** Reads the AA's answer to {@code request}. */
    public AuthorizationMessages.AtResult readAuthorization(byte[] body, Request request, EtsiCertificate aa) {
        return AuthorizationMessages.readResponse(body, request.message(), aa, encryption);
    }

    // ---- deliberately bad requests ----

    /**
     * Hook for deliberately bad requests: {@code request} with its plaintext replaced by
     * {@code plaintext} (a test's altered copy of the genuine one), encrypted again to
     * {@code authority}, so that it decrypts and fails only where the alteration is checked.
     */
    public Request withPlaintext(Request request, byte[] plaintext, EtsiCertificate authority) {
        EncryptedMessage m = encryption.encryptFor(authority.asEncryptionRecipient(), plaintext);
        return request
                .withMessage(new OutgoingRequest(m.encoded(), m.aesKey(), Arrays.copyOf(HashAlgorithm.SHA256.digest(m.encoded()), 16)));
    }

    private static EtsiCertificate requireEnrolled(SimulatedStation s) {
        if (!s.enrolled()) {
            throw new IllegalStateException(s.canonicalId() + " is not enrolled");
        }
        return s.enrolmentCredential();
    }
}
