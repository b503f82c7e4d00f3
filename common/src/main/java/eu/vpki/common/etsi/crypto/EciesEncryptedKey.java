package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;

/**
 * The output of ECIES key encryption, as IEEE 1609.2 {@code EciesP256EncryptedKey} carries it: the
 * sender's ephemeral public key V, the encrypted data-encryption key c and the authentication tag t
 * (16 bytes each).
 */
public record EciesEncryptedKey(EtsiPublicKey v, byte[] c, byte[] t) {
    public EciesEncryptedKey {
        if (v == null || c == null || c.length != Ecies.KEY_BYTES || t == null || t.length != Ecies.TAG_BYTES) {
            throw new PkiException(ErrorCode.DECRYPTION_FAILED,
                    "ECIES encrypted key needs V, a " + Ecies.KEY_BYTES + "-byte c and a " + Ecies.TAG_BYTES + "-byte t");
        }
        c = c.clone();
        t = t.clone();
    }

    @Override
    public byte[] c() {
        return c.clone();
    }

    @Override
    public byte[] t() {
        return t.clone();
    }
}
