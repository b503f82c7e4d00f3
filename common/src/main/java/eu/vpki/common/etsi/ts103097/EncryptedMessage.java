package eu.vpki.common.etsi.ts103097;

/**
 * An encrypted message and the AES-128 key it was encrypted with.
 *
 * @param encoded COER encoding of the {@code EtsiTs103097Data-Encrypted}
 * @param aesKey  the data-encryption key: keep it to decrypt the answer, which is encrypted with
 *                it as a pre-shared key (TS 102 941 responses)
 */
public record EncryptedMessage(byte[] encoded, byte[] aesKey) {
    public EncryptedMessage {
        encoded = encoded.clone();
        aesKey = aesKey.clone();
    }

    @Override
    public byte[] encoded() {
        return encoded.clone();
    }

    @Override
    public byte[] aesKey() {
        return aesKey.clone();
    }
}
