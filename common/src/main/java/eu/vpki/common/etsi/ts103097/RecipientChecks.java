package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.HashAlgorithm;

/** Argument checks shared by {@link EncryptionRecipient} and {@link DecryptionIdentity}. */
final class RecipientChecks {
    private RecipientChecks() {
    }

    /** A copy of a whole-certificate hash, which must be a SHA-256 or SHA-384 value. */
    static byte[] certificateHash(byte[] hash) {
        if (hash == null || (hash.length != HashAlgorithm.SHA256.length() && hash.length != HashAlgorithm.SHA384.length())) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "certificate hash must be a SHA-256 or SHA-384 value");
        }
        return hash.clone();
    }
}
