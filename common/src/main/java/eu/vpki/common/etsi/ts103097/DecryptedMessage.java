package eu.vpki.common.etsi.ts103097;

/**
 * A decrypted message and the AES-128 key the sender used.
 *
 * @param plaintext the decrypted content (for ETSI messages: the COER of the inner EtsiTs103097Data)
 * @param aesKey    the sender's data-encryption key: the answer is encrypted with it as a
 *                  pre-shared key (TS 102 941 responses)
 */
public record DecryptedMessage(byte[] plaintext, byte[] aesKey) {
    public DecryptedMessage {
        plaintext = plaintext.clone();
        aesKey = aesKey.clone();
    }

    @Override
    public byte[] plaintext() {
        return plaintext.clone();
    }

    @Override
    public byte[] aesKey() {
        return aesKey.clone();
    }
}
