package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiKeyAgreement;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareKeyAgreement;

/**
 * Our side of a certificate we can decrypt for: the private encryption key (in memory or in a
 * token, behind {@link EtsiKeyAgreement}), the certificate's
 * HashedId8 (matched against {@code PKRecipientInfo.recipientId}) and its whole-certificate hash
 * (the ECIES parameter P1), as in {@link EncryptionRecipient}.
 *
 * @throws PkiException {@link ErrorCode#WRONG_CURVE} for a key on a curve without ECIES
 *                      (brainpoolP384r1), {@link ErrorCode#INVALID_ARGUMENT} for a missing value or
 *                      a hash of the wrong length
 */
public record DecryptionIdentity(EtsiKeyAgreement encryptionKey, HashedId8 certificateId, byte[] certificateHash) {
    public DecryptionIdentity {
        if (encryptionKey == null || certificateId == null) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "identity needs an encryption key pair and a certificate id");
        }
        if (!encryptionKey.curve().encryptionCapable()) {
            throw new PkiException(ErrorCode.WRONG_CURVE, "no ECIES encryption key on " + encryptionKey.curve());
        }
        certificateHash = RecipientChecks.certificateHash(certificateHash);
    }

    /** An identity whose encryption key pair is held in memory. */
    public DecryptionIdentity(EtsiKeyPair encryptionKeyPair, HashedId8 certificateId, byte[] certificateHash) {
        this(encryptionKeyPair == null ? null : new SoftwareKeyAgreement(encryptionKeyPair), certificateId, certificateHash);
    }

    @Override
    public byte[] certificateHash() {
        return certificateHash.clone();
    }
}
