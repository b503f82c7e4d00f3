package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;

/**
 * The certificate an encryption is addressed to ({@code certRecipInfo}): its encryption key, its
 * HashedId8 (the recipient id) and the whole-certificate hash of its canonical COER encoding, which
 * is the ECIES parameter P1 (IEEE 1609.2 {@code RecipientInfo}). The hash is 32 bytes (SHA-256) or
 * 48 bytes (SHA-384, when the certificate's whole-certificate hash is SHA-384); the HashedId8 is
 * normally its last 8 bytes.
 *
 * @throws PkiException {@link ErrorCode#WRONG_CURVE} for a key on a curve without ECIES
 *                      (brainpoolP384r1), {@link ErrorCode#INVALID_ARGUMENT} for a missing value or
 *                      a hash of the wrong length
 */
public record EncryptionRecipient(EtsiPublicKey encryptionKey, HashedId8 certificateId, byte[] certificateHash) {
    public EncryptionRecipient {
        if (encryptionKey == null || certificateId == null) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "recipient needs an encryption key and a certificate id");
        }
        if (!encryptionKey.curve().encryptionCapable()) {
            throw new PkiException(ErrorCode.WRONG_CURVE, "no ECIES encryption key on " + encryptionKey.curve());
        }
        certificateHash = RecipientChecks.certificateHash(certificateHash);
    }

    @Override
    public byte[] certificateHash() {
        return certificateHash.clone();
    }
}
