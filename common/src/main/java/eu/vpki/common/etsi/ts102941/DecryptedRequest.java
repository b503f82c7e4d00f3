package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DecryptedMessage;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;

/**
 * A request an authority could decrypt: from here on every refusal can be answered with a proper
 * response encrypted with {@link #aesKey()} and echoing {@link #requestHash()}.
 */
public record DecryptedRequest(byte[] plaintext, byte[] aesKey, byte[] requestHash) {
    public DecryptedRequest {
        plaintext = plaintext.clone();
        aesKey = aesKey.clone();
        requestHash = requestHash.clone();
    }

    /**
     * Decrypts a request body addressed to {@code us}.
     *
     * @throws PkiException when it cannot be decrypted (no response can be encrypted then)
     */
    public static DecryptedRequest decrypt(byte[] body, DecryptionIdentity us, DataEncryption encryption) {
        DecryptedMessage m = encryption.decrypt(us, body);
        return new DecryptedRequest(m.plaintext(), m.aesKey(), Ts102941Fields.requestHash(body));
    }

    @Override
    public byte[] plaintext() {
        return plaintext.clone();
    }

    @Override
    public byte[] aesKey() {
        return aesKey.clone();
    }

    @Override
    public byte[] requestHash() {
        return requestHash.clone();
    }
}
