package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.crypto.HashAlgorithm;
import eu.vpki.common.etsi.oer.Coer;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DataSigning;
import eu.vpki.common.etsi.ts103097.EncryptionRecipient;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.SignedMessage;
import eu.vpki.common.etsi.ts103097.SignerKind;
import org.bouncycastle.asn1.ASN1Enumerated;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.oer.its.etsi102941.AuthorizationResponseCode;
import org.bouncycastle.oer.its.etsi102941.EtsiTs102941DataContent;
import org.bouncycastle.oer.its.etsi102941.InnerAtRequest;
import org.bouncycastle.oer.its.etsi102941.InnerAtResponse;
import org.bouncycastle.oer.its.etsi102941.SharedAtRequest;
import org.bouncycastle.oer.its.etsi102941.basetypes.EcSignature;
import org.bouncycastle.oer.its.etsi103097.EtsiTs103097Certificate;
import org.bouncycastle.oer.its.etsi103097.EtsiTs103097DataEncrypted;
import org.bouncycastle.oer.its.etsi103097.EtsiTs103097DataSignedExternalPayload;
import org.bouncycastle.oer.its.ieee1609dot2.Ieee1609Dot2Content;
import org.bouncycastle.oer.its.ieee1609dot2.Ieee1609Dot2Data;
import org.bouncycastle.oer.its.ieee1609dot2.Opaque;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Optional;

/**
 * TS 102 941 authorization, both sides. The station sends an InnerAtRequest (the AT keys, an HMAC
 * key, the SharedAtRequest with eaId and keyTag, and the EC's signature over the SharedAtRequest,
 * encrypted for the EA when privacy is wanted) in EtsiTs102941Data, optionally signed by the new AT
 * key (proof of possession), encrypted to the AA. The AA answers an InnerAtResponse signed by it and
 * encrypted with the request's AES key. The AA never learns who signed the EC signature.
 */
public final class AuthorizationMessages {
    private AuthorizationMessages() {
    }

    /** What an authorization request asks for. */
    public record AtRequest(EtsiPublicKey verificationKey, EtsiPublicKey encryptionKey, SubjectAttributes requested) {
    }

    /** How the request is protected: proof of possession by the AT key, EC signature encrypted for the EA. */
    public record Protection(boolean proofOfPossession, boolean encryptEcSignature) {
        public static final Protection FULL = new Protection(true, true);
    }

    /**
     * An authorization request the AA decrypted and checked (keyTag, and proof of possession when
     * present). The SharedAtRequest and EC signature go on to the EA unchanged.
     */
    public static final class ReceivedAtRequest {
        private final AtRequest request;
        private final HashedId8 eaId;
        private final boolean proofOfPossession;
        private final boolean ecSignatureEncrypted;
        private final Instant popGenerationTime;
        final SharedAtRequest sharedAtRequest;
        final EcSignature ecSignature;

        ReceivedAtRequest(AtRequest request, HashedId8 eaId, SignedMessage popSignature, SharedAtRequest shared, EcSignature ecSignature) {
            this.request = request;
            this.eaId = eaId;
            this.proofOfPossession = popSignature != null;
            this.popGenerationTime = popSignature == null ? null : popSignature.generationTime().orElse(null);
            this.sharedAtRequest = shared;
            this.ecSignature = ecSignature;
            this.ecSignatureEncrypted = ecSignature.getChoice() == EcSignature.encryptedEcSignature;
        }

        public AtRequest request() {
            return request;
        }

        /** The EA that must validate the request. */
        public HashedId8 eaId() {
            return eaId;
        }

        public boolean proofOfPossession() {
            return proofOfPossession;
        }

        /** The generationTime of the proof-of-possession signature; empty without one (or when it lacks the field). */
        public Optional<Instant> popGenerationTime() {
            return Optional.ofNullable(popGenerationTime);
        }

        public boolean ecSignatureEncrypted() {
            return ecSignatureEncrypted;
        }
    }

    /** The outcome a station reads from an authorization response. */
    public record AtResult(int responseCode, Optional<EtsiCertificate> authorizationTicket) {
        public boolean ok() {
            return responseCode == 0;
        }
    }

    // ---- ITS station side ----

    /**
     * Builds an authorization request.
     *
     * @param atKey signer of the new AT key (used for proof of possession; its public key must be the requested one)
     * @param ea    the EA that enrolled the station (its HashedId8 is eaId; the EC signature is encrypted to it)
     * @param aa    the AA the request goes to
     */
    public static OutgoingRequest request(AtRequest r, EtsiSigner atKey, EtsiCertificate ec, EtsiSigner ecKey, EtsiCertificate ea,
                                          EncryptionRecipient aa, Protection protection, Instant now, SecureRandom random,
                                          DataEncryption encryption) {
        if (!atKey.publicKey().equals(r.verificationKey())) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "the AT signer must hold the requested verification key");
        }
        byte[] hmacKey = new byte[32];
        random.nextBytes(hmacKey);
        byte[] keyTag = Ts102941Fields.keyTag(hmacKey, r.verificationKey(), r.encryptionKey());
        SharedAtRequest shared = new SharedAtRequest(new org.bouncycastle.oer.its.ieee1609dot2.basetypes.HashedId8(ea.hashedId8().bytes()),
                new DEROctetString(keyTag), Ts102941Fields.FORMAT_TS103097, Ts102941Fields.toOer(r.requested()));
        byte[] sharedEncoded = Coer.encode(shared, Coer.Type.SHARED_AT_REQUEST);
        byte[] signature = DataSigning.signExternalPayload(HashAlgorithm.SHA256.digest(sharedEncoded), Psids.SECURED_CERTIFICATE_REQUEST,
                now, SignerKind.DIGEST, ecKey, ec);
        EcSignature ecSignature = protection.encryptEcSignature()
                ? new EcSignature(EcSignature.encryptedEcSignature, EtsiTs103097DataEncrypted.getInstance(Coer.decode(
                        encryption.encryptFor(ea.asEncryptionRecipient(), signature).encoded(), Coer.Type.DATA)))
                : new EcSignature(EcSignature.ecSignature,
                        EtsiTs103097DataSignedExternalPayload.getInstance(Coer.decode(signature, Coer.Type.DATA)));
        InnerAtRequest inner = new InnerAtRequest(Ts102941Fields.publicKeys(r.verificationKey(), r.encryptionKey()),
                new DEROctetString(hmacKey), shared, ecSignature);
        byte[] data = Ts102941Data.wrap(EtsiTs102941DataContent.authorizationRequest, inner);
        if (protection.proofOfPossession()) {
            return Envelopes.signAndEncrypt(data, now, SignerKind.SELF, atKey, null, aa, encryption);
        }
        byte[] unsecured = Coer.encode(new Ieee1609Dot2Data(DataSigning.PROTOCOL_VERSION, Ieee1609Dot2Content.unsecuredData(data)),
                Coer.Type.DATA);
        return Envelopes.encrypt(unsecured, aa, encryption);
    }

    /** Reads the AA's response to {@code request}. */
    public static AtResult readResponse(byte[] body, OutgoingRequest request, EtsiCertificate aa, DataEncryption encryption) {
        byte[] data = Envelopes.openResponse(body, request, aa, encryption);
        InnerAtResponse response = InnerAtResponse.getInstance(Ts102941Data.unwrap(data, EtsiTs102941DataContent.authorizationResponse));
        Envelopes.requireRequestHash(request.requestHash(), response.getRequestHash().getOctets());
        int code = response.getResponseCode().intValueExact();
        Optional<EtsiCertificate> at = Optional.ofNullable(response.getCertificate())
                .map(c -> EtsiCertificate.decode(Coer.encode(c, Coer.Type.CERTIFICATE)));
        if (code == 0 && at.isEmpty()) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "authorization response ok without a certificate");
        }
        return new AtResult(code, at);
    }

    // ---- AA side ----

    /** Parses a decrypted authorization request, verifies proof of possession (if signed) and the keyTag. */
    public static ReceivedAtRequest parseRequest(DecryptedRequest decrypted) {
        Ieee1609Dot2Data outer = Ieee1609Dot2Data.getInstance(Coer.decode(decrypted.plaintext(), Coer.Type.DATA));
        boolean pop = outer.getContent().getChoice() == Ieee1609Dot2Content.signedData;
        SignedMessage popSignature = null;
        byte[] data;
        if (pop) {
            popSignature = SignedMessage.of(decrypted.plaintext(), outer).requirePsid(Psids.SECURED_CERTIFICATE_REQUEST);
            data = popSignature.requirePayload();
        } else if (outer.getContent().getChoice() == Ieee1609Dot2Content.unsecuredData) {
            data = Opaque.getInstance(outer.getContent().getIeee1609Dot2Content()).getContent();
        } else {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "authorization request must be signed or unsecured inside the encryption");
        }
        InnerAtRequest inner = InnerAtRequest.getInstance(Ts102941Data.unwrap(data, EtsiTs102941DataContent.authorizationRequest));
        SharedAtRequest shared = inner.getSharedAtRequest();
        Ts102941Fields.requireFormat(shared.getCertificateFormat());
        AtRequest request = new AtRequest(Ts102941Fields.verificationKey(inner.getPublicKeys()),
                Ts102941Fields.encryptionKey(inner.getPublicKeys()), Ts102941Fields.fromOer(shared.getRequestedSubjectAttributes()));
        if (popSignature != null) {
            popSignature.requireSelfSignedBy(request.verificationKey(), ErrorCode.PROOF_OF_POSSESSION_FAILED);
        }
        byte[] hmacKey = inner.getHmacKey().getOctets();
        if (hmacKey.length != 32) {
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "hmacKey must be 32 bytes");
        }
        byte[] expectedTag = Ts102941Fields.keyTag(hmacKey, request.verificationKey(), request.encryptionKey());
        if (!MessageDigest.isEqual(expectedTag, shared.getKeyTag().getOctets())) {
            throw new PkiException(ErrorCode.KEY_TAG_MISMATCH, "keyTag does not match the requested keys");
        }
        return new ReceivedAtRequest(request, HashedId8.of(shared.getEaId().getHashBytes()), popSignature, shared, inner.getEcSignature());
    }

    /** The AA's response: {@code at} when {@code responseCode} is 0 (ok), else null. */
    public static byte[] response(DecryptedRequest request, int responseCode, EtsiCertificate at, EtsiSigner aaSigner,
                                  EtsiCertificate aa, Instant now, DataEncryption encryption) {
        if ((responseCode == 0) != (at != null)) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "an authorization response carries a certificate exactly when ok");
        }
        InnerAtResponse response = new InnerAtResponse(new DEROctetString(request.requestHash()),
                AuthorizationResponseCode.getInstance(new ASN1Enumerated(responseCode)),
                at == null ? null : EtsiTs103097Certificate.getInstance(at.oer()));
        byte[] data = Ts102941Data.wrap(EtsiTs102941DataContent.authorizationResponse, response);
        return Envelopes.response(data, request.aesKey(), now, aaSigner, aa, encryption);
    }
}
