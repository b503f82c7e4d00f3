package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DataSigning;
import eu.vpki.common.etsi.ts103097.EncryptedMessage;
import eu.vpki.common.etsi.ts103097.EncryptionRecipient;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.SignedMessage;
import eu.vpki.common.etsi.ts103097.SignerKind;

import java.security.MessageDigest;
import java.time.Instant;

/**
 * The security envelopes of TS 102 941 messages, written once: requests are signed (PSID 623) and
 * encrypted to the receiving authority's certificate; responses are signed by the authority with
 * signer = digest and encrypted with the AES key of the request (pskRecipInfo).
 */
final class Envelopes {
    private Envelopes() {
    }

    static OutgoingRequest signAndEncrypt(byte[] ts102941Data, Instant now, SignerKind kind, EtsiSigner signer,
                                          EtsiCertificate signerCertificate, EncryptionRecipient recipient, DataEncryption encryption) {
        byte[] signed = DataSigning.sign(ts102941Data, Psids.SECURED_CERTIFICATE_REQUEST, now, kind, signer, signerCertificate);
        return encrypt(signed, recipient, encryption);
    }

    static OutgoingRequest encrypt(byte[] plaintext, EncryptionRecipient recipient, DataEncryption encryption) {
        EncryptedMessage m = encryption.encryptFor(recipient, plaintext);
        return new OutgoingRequest(m.encoded(), m.aesKey(), Ts102941Fields.requestHash(m.encoded()));
    }

    static byte[] response(byte[] ts102941Data, byte[] aesKey, Instant now, EtsiSigner authoritySigner,
                           EtsiCertificate authority, DataEncryption encryption) {
        byte[] signed = DataSigning.sign(ts102941Data, Psids.SECURED_CERTIFICATE_REQUEST, now, SignerKind.DIGEST,
                authoritySigner, authority);
        return encryption.encryptWithPreSharedKey(aesKey, signed);
    }

    /** Decrypts a response to {@code request}, checks the authority's signature and returns the EtsiTs102941Data. */
    static byte[] openResponse(byte[] body, OutgoingRequest request, EtsiCertificate authority, DataEncryption encryption) {
        byte[] signed = encryption.decryptWithPreSharedKey(request.aesKey(), body);
        SignedMessage m = SignedMessage.parse(signed).requirePsid(Psids.SECURED_CERTIFICATE_REQUEST);
        if (m.signerKind() != SignerKind.DIGEST) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "responses must be signed with signer = digest");
        }
        return m.requireSignedBy(authority).requirePayload();
    }

    static void requireRequestHash(byte[] expected, byte[] actual) {
        if (!MessageDigest.isEqual(expected, actual)) {
            throw new PkiException(ErrorCode.REQUEST_HASH_MISMATCH, "response does not carry this request's hash");
        }
    }
}
