package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.oer.Coer;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DataSigning;
import eu.vpki.common.etsi.ts103097.EncryptionRecipient;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.SignedMessage;
import eu.vpki.common.etsi.ts103097.SignerKind;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.oer.its.etsi102941.EnrolmentResponseCode;
import org.bouncycastle.oer.its.etsi102941.EtsiTs102941DataContent;
import org.bouncycastle.oer.its.etsi102941.InnerEcRequest;
import org.bouncycastle.oer.its.etsi102941.InnerEcRequestSignedForPop;
import org.bouncycastle.oer.its.etsi102941.InnerEcResponse;
import org.bouncycastle.oer.its.etsi103097.EtsiTs103097Certificate;
import org.bouncycastle.oer.its.ieee1609dot2.Ieee1609Dot2Data;

import java.time.Instant;
import java.util.Optional;

/**
 * TS 102 941 enrolment, both sides. A request is an InnerEcRequest signed by the new key (proof of
 * possession, signer self), wrapped in EtsiTs102941Data, signed by the canonical key (initial
 * enrolment, signer self) or by the current EC (re-enrolment, signer digest), and encrypted to the
 * EA. The response is an InnerEcResponse signed by the EA and encrypted with the request's AES key.
 */
public final class EnrolmentMessages {
    private EnrolmentMessages() {
    }

    /** What an enrolment request asks for. {@code itsId} is the canonical id, or the current EC's HashedId8 when re-enrolling. */
    public record EcRequest(byte[] itsId, EtsiPublicKey verificationKey, EtsiPublicKey encryptionKey, SubjectAttributes requested) {
        public EcRequest {
            itsId = itsId.clone();
        }

        @Override
        public byte[] itsId() {
            return itsId.clone();
        }
    }

    /** A decrypted, parsed enrolment request whose proof of possession verified; the outer signature is for the EA to check. */
    public record ReceivedEcRequest(EcRequest request, SignedMessage outerSignature) {
        /** Whether this is an initial enrolment (outer signer self: the canonical key). */
        public boolean initial() {
            return outerSignature.signerKind() == SignerKind.SELF;
        }
    }

    /** The outcome an ITS station reads from an enrolment response. */
    public record EcResult(int responseCode, Optional<EtsiCertificate> enrolmentCredential) {
        public boolean ok() {
            return responseCode == 0;
        }
    }

    // ---- ITS station side ----

    /** Initial enrolment, signed with the canonical key. */
    public static OutgoingRequest initialRequest(EcRequest request, EtsiSigner newKey, EtsiSigner canonicalKey,
                                                 EncryptionRecipient ea, Instant now, DataEncryption encryption) {
        return request(request, newKey, canonicalKey, null, ea, now, encryption);
    }

    /** Re-enrolment, signed with the current EC. */
    public static OutgoingRequest reEnrolmentRequest(EcRequest request, EtsiSigner newKey, EtsiSigner currentEcKey,
                                                     EtsiCertificate currentEc, EncryptionRecipient ea, Instant now,
                                                     DataEncryption encryption) {
        return request(request, newKey, currentEcKey, currentEc, ea, now, encryption);
    }

    private static OutgoingRequest request(EcRequest r, EtsiSigner newKey, EtsiSigner outerSigner, EtsiCertificate currentEc,
                                           EncryptionRecipient ea, Instant now, DataEncryption encryption) {
        if (!newKey.publicKey().equals(r.verificationKey())) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "proof of possession must be signed with the requested key");
        }
        InnerEcRequest inner = new InnerEcRequest(new DEROctetString(r.itsId()), Ts102941Fields.FORMAT_TS103097,
                Ts102941Fields.publicKeys(r.verificationKey(), r.encryptionKey()), Ts102941Fields.toOer(r.requested()));
        byte[] pop = DataSigning.sign(Coer.encode(inner, Coer.Type.INNER_EC_REQUEST), Psids.SECURED_CERTIFICATE_REQUEST, now,
                SignerKind.SELF, newKey, null);
        byte[] data = Ts102941Data.wrap(EtsiTs102941DataContent.enrolmentRequest,
                InnerEcRequestSignedForPop.getInstance(Coer.decode(pop, Coer.Type.DATA)));
        SignerKind outerKind = currentEc == null ? SignerKind.SELF : SignerKind.DIGEST;
        return Envelopes.signAndEncrypt(data, now, outerKind, outerSigner, currentEc, ea, encryption);
    }

    /** Reads the EA's response to {@code request}. */
    public static EcResult readResponse(byte[] body, OutgoingRequest request, EtsiCertificate ea, DataEncryption encryption) {
        byte[] data = Envelopes.openResponse(body, request, ea, encryption);
        InnerEcResponse response = InnerEcResponse.getInstance(Ts102941Data.unwrap(data, EtsiTs102941DataContent.enrolmentResponse));
        Envelopes.requireRequestHash(request.requestHash(), response.getRequestHash().getOctets());
        int code = response.getResponseCode().intValueExact();
        Optional<EtsiCertificate> ec = Optional.ofNullable(response.getCertificate())
                .map(c -> EtsiCertificate.decode(Coer.encode(c, Coer.Type.CERTIFICATE)));
        if (code == 0 && ec.isEmpty()) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "enrolment response ok without a certificate");
        }
        return new EcResult(code, ec);
    }

    // ---- EA side ----

    /**
     * Parses a decrypted enrolment request and verifies its proof of possession. The outer signature
     * (canonical key or current EC) is left to the EA, which knows which key to expect.
     */
    public static ReceivedEcRequest parseRequest(DecryptedRequest decrypted) {
        SignedMessage outer = SignedMessage.parse(decrypted.plaintext()).requirePsid(Psids.SECURED_CERTIFICATE_REQUEST);
        if (outer.signerKind() == SignerKind.CERTIFICATE) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "enrolment requests are signed by the canonical key or an EC digest");
        }
        var popStructure = Ts102941Data.unwrap(outer.requirePayload(), EtsiTs102941DataContent.enrolmentRequest);
        // part of a payload just decoded canonically: re-encoding it gives its exact bytes, no second decode needed
        SignedMessage pop = SignedMessage.of(Coer.encode(popStructure, Coer.Type.DATA), Ieee1609Dot2Data.getInstance(popStructure))
                .requirePsid(Psids.SECURED_CERTIFICATE_REQUEST);
        InnerEcRequest inner = InnerEcRequest.getInstance(Coer.decode(pop.requirePayload(), Coer.Type.INNER_EC_REQUEST));
        Ts102941Fields.requireFormat(inner.getCertificateFormat());
        EcRequest request = new EcRequest(inner.getItsId().getOctets(), Ts102941Fields.verificationKey(inner.getPublicKeys()),
                Ts102941Fields.encryptionKey(inner.getPublicKeys()), Ts102941Fields.fromOer(inner.getRequestedSubjectAttributes()));
        pop.requireSelfSignedBy(request.verificationKey(), ErrorCode.PROOF_OF_POSSESSION_FAILED);
        return new ReceivedEcRequest(request, outer);
    }

    /** The EA's response: {@code ec} when {@code responseCode} is 0 (ok), else null. */
    public static byte[] response(DecryptedRequest request, int responseCode, EtsiCertificate ec, EtsiSigner eaSigner,
                                  EtsiCertificate ea, Instant now, DataEncryption encryption) {
        if ((responseCode == 0) != (ec != null)) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "an enrolment response carries a certificate exactly when ok");
        }
        InnerEcResponse response = new InnerEcResponse(new DEROctetString(request.requestHash()),
                EnrolmentResponseCode.getInstance(new org.bouncycastle.asn1.ASN1Enumerated(responseCode)),
                ec == null ? null : EtsiTs103097Certificate.getInstance(ec.oer()));
        byte[] data = Ts102941Data.wrap(EtsiTs102941DataContent.enrolmentResponse, response);
        return Envelopes.response(data, request.aesKey(), now, eaSigner, ea, encryption);
    }
}
