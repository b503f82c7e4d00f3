package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.crypto.HashAlgorithm;
import eu.vpki.common.etsi.oer.Coer;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EncryptionRecipient;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.SignedMessage;
import eu.vpki.common.etsi.ts103097.SignerKind;
import org.bouncycastle.asn1.ASN1Enumerated;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.oer.its.etsi102941.AuthorizationValidationRequest;
import org.bouncycastle.oer.its.etsi102941.AuthorizationValidationResponse;
import org.bouncycastle.oer.its.etsi102941.AuthorizationValidationResponseCode;
import org.bouncycastle.oer.its.etsi102941.EtsiTs102941DataContent;
import org.bouncycastle.oer.its.etsi102941.SharedAtRequest;
import org.bouncycastle.oer.its.etsi102941.basetypes.EcSignature;
import org.bouncycastle.oer.its.ieee1609dot2.Ieee1609Dot2Data;

import java.security.MessageDigest;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * TS 102 941 authorization validation between AA and EA. The AA forwards the station's
 * SharedAtRequest and EC signature in an AuthorizationValidationRequest, signed by the AA (signer
 * digest) and encrypted to the EA. The EA checks the AA against its CTL, the EC signature over the
 * SharedAtRequest, and answers the confirmed subject attributes (or a refusal code), signed and
 * encrypted with the AA's AES key. The EA never sees the AT keys; the AA never sees the EC.
 */
public final class AuthorizationValidationMessages {
    private AuthorizationValidationMessages() {
    }

    /**
     * A validation request the EA decrypted: the requesting AA (verified), what the station asks
     * for, and its EC signature (parsed, signature not yet verified: the EA looks up the EC by
     * {@link SignedMessage#signerDigest()} and calls {@link SignedMessage#requireSignedBy}).
     */
    public record ReceivedValidationRequest(EtsiCertificate aa, HashedId8 eaId, SubjectAttributes requested, SignedMessage ecSignature) {
    }

    /** The outcome the AA reads. */
    public record ValidationResult(int responseCode, Optional<SubjectAttributes> confirmed) {
        public boolean ok() {
            return responseCode == 0;
        }
    }

    // ---- AA side ----

    public static OutgoingRequest request(AuthorizationMessages.ReceivedAtRequest atRequest, EtsiSigner aaSigner, EtsiCertificate aa,
                                          EncryptionRecipient ea, Instant now, DataEncryption encryption) {
        AuthorizationValidationRequest request = new AuthorizationValidationRequest(atRequest.sharedAtRequest, atRequest.ecSignature);
        byte[] data = Ts102941Data.wrap(EtsiTs102941DataContent.authorizationValidationRequest, request);
        return Envelopes.signAndEncrypt(data, now, SignerKind.DIGEST, aaSigner, aa, ea, encryption);
    }

    public static ValidationResult readResponse(byte[] body, OutgoingRequest request, EtsiCertificate ea, DataEncryption encryption) {
        byte[] data = Envelopes.openResponse(body, request, ea, encryption);
        AuthorizationValidationResponse response = AuthorizationValidationResponse.getInstance(
                Ts102941Data.unwrap(data, EtsiTs102941DataContent.authorizationValidationResponse));
        Envelopes.requireRequestHash(request.requestHash(), response.getRequestHash().getOctets());
        int code = response.getResponseCode().intValueExact();
        Optional<SubjectAttributes> confirmed = Optional.ofNullable(response.getConfirmedSubjectAttributes()).map(Ts102941Fields::fromOer);
        if (code == 0 && confirmed.isEmpty()) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "validation ok without confirmed attributes");
        }
        return new ValidationResult(code, confirmed);
    }

    // ---- EA side ----

    /**
     * Parses a decrypted validation request: the signer must be an AA that {@code aaDirectory} knows
     * (the current CTL) and its signature must verify; an encrypted EC signature is decrypted with
     * {@code ea}; the EC signature must cover exactly this SharedAtRequest.
     */
    public static ReceivedValidationRequest parseRequest(DecryptedRequest decrypted,
                                                         Function<HashedId8, Optional<EtsiCertificate>> aaDirectory,
                                                         DecryptionIdentity ea, DataEncryption encryption) {
        SignedMessage outer = SignedMessage.parse(decrypted.plaintext()).requirePsid(Psids.SECURED_CERTIFICATE_REQUEST);
        EtsiCertificate aa = switch (outer.signerKind()) {
            case DIGEST -> aaDirectory.apply(outer.signerDigest().orElseThrow())
                    .orElseThrow(() -> new PkiException(ErrorCode.NOT_TRUSTED,
                            "AA " + outer.signerDigest().orElseThrow() + " is not in the CTL"));
            case CERTIFICATE -> {
                EtsiCertificate c = outer.signerCertificate().orElseThrow();
                yield aaDirectory.apply(c.hashedId8()).filter(c::equals)
                        .orElseThrow(() -> new PkiException(ErrorCode.NOT_TRUSTED, "AA " + c.hashedId8() + " is not in the CTL"));
            }
            case SELF -> throw new PkiException(ErrorCode.UNKNOWN_SIGNER, "validation requests must be signed by an AA");
        };
        outer.requireSignedBy(aa);
        AuthorizationValidationRequest request = AuthorizationValidationRequest.getInstance(
                Ts102941Data.unwrap(outer.requirePayload(), EtsiTs102941DataContent.authorizationValidationRequest));
        SharedAtRequest shared = request.getSharedAtRequest();
        Ts102941Fields.requireFormat(shared.getCertificateFormat());
        EcSignature ecSignature = request.getEcSignature();
        SignedMessage ecSigned;
        if (ecSignature.getChoice() == EcSignature.encryptedEcSignature) {
            byte[] encrypted = Coer.encode(ecSignature.getEcSignature(), Coer.Type.DATA);
            ecSigned = SignedMessage.parse(encryption.decrypt(ea, encrypted).plaintext());
        } else {
            // part of the payload just decoded canonically: no second decode needed
            ecSigned = SignedMessage.of(Coer.encode(ecSignature.getEcSignature(), Coer.Type.DATA),
                    Ieee1609Dot2Data.getInstance(ecSignature.getEcSignature()));
        }
        ecSigned.requirePsid(Psids.SECURED_CERTIFICATE_REQUEST);
        if (ecSigned.signerKind() != SignerKind.DIGEST) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "the EC signature must name the EC by digest");
        }
        byte[] expectedHash = HashAlgorithm.SHA256.digest(Coer.encode(shared, Coer.Type.SHARED_AT_REQUEST));
        byte[] signedHash = ecSigned.externalDataHash()
                .orElseThrow(() -> new PkiException(ErrorCode.UNEXPECTED_CONTENT, "the EC signature must sign an external payload"));
        if (!MessageDigest.isEqual(expectedHash, signedHash)) {
            throw new PkiException(ErrorCode.INVALID_SIGNATURE, "the EC signature does not cover this SharedAtRequest");
        }
        return new ReceivedValidationRequest(aa, HashedId8.of(shared.getEaId().getHashBytes()),
                Ts102941Fields.fromOer(shared.getRequestedSubjectAttributes()), ecSigned);
    }

    /** The EA's answer: {@code confirmed} when {@code responseCode} is 0 (ok), else null. */
    public static byte[] response(DecryptedRequest request, int responseCode, SubjectAttributes confirmed, EtsiSigner eaSigner,
                                  EtsiCertificate ea, Instant now, DataEncryption encryption) {
        if ((responseCode == 0) != (confirmed != null)) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "a validation response carries attributes exactly when ok");
        }
        AuthorizationValidationResponse response = new AuthorizationValidationResponse(new DEROctetString(request.requestHash()),
                AuthorizationValidationResponseCode.getInstance(new ASN1Enumerated(responseCode)),
                confirmed == null ? null : Ts102941Fields.toOer(confirmed));
        byte[] data = Ts102941Data.wrap(EtsiTs102941DataContent.authorizationValidationResponse, response);
        return Envelopes.response(data, request.aesKey(), now, eaSigner, ea, encryption);
    }
}
