package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.modes.CCMBlockCipher;
import org.bouncycastle.crypto.modes.CCMModeCipher;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;

import java.util.Arrays;

/**
 * AES-128-CCM as IEEE 1609.2 clause 5.3.8 uses it: 16-byte key, 12-byte nonce, 16-byte tag appended
 * to the ciphertext, no associated data. Stateless and thread-safe (a cipher is built per call; the
 * key schedule has to be computed per key anyway).
 */
public final class AesCcm {
    public static final int KEY_BYTES = 16;
    public static final int NONCE_BYTES = 12;
    public static final int TAG_BYTES = 16;

    private AesCcm() {
    }

    /** Encrypts and authenticates: the result is {@code ciphertext || tag}, 16 bytes longer than the plaintext. */
    public static byte[] encrypt(byte[] key, byte[] nonce, byte[] plaintext) {
        CCMModeCipher ccm = cipher(true, key, nonce);
        try {
            return process(ccm, plaintext);
        } catch (InvalidCipherTextException | RuntimeException e) {
            throw new PkiException(ErrorCode.INTERNAL_ERROR, "AES-CCM encryption failed: " + e.getMessage(), e);
        }
    }

    /**
     * Checks the tag and decrypts.
     *
     * @throws PkiException {@link ErrorCode#DECRYPTION_FAILED} when the tag does not verify or the
     *                      input is shorter than a tag
     */
    public static byte[] decrypt(byte[] key, byte[] nonce, byte[] ciphertextAndTag) {
        CCMModeCipher ccm = cipher(false, key, nonce);
        try {
            return process(ccm, ciphertextAndTag);
        } catch (InvalidCipherTextException | RuntimeException e) {
            throw new PkiException(ErrorCode.DECRYPTION_FAILED, "AES-CCM tag check failed");
        }
    }

    private static byte[] process(CCMModeCipher ccm, byte[] input) throws InvalidCipherTextException {
        byte[] out = new byte[ccm.getOutputSize(input.length)];
        int n = ccm.processBytes(input, 0, input.length, out, 0);
        n += ccm.doFinal(out, n);
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    private static CCMModeCipher cipher(boolean encrypt, byte[] key, byte[] nonce) {
        if (key == null || key.length != KEY_BYTES) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "AES-128 key must be " + KEY_BYTES + " bytes");
        }
        if (nonce == null || nonce.length != NONCE_BYTES) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "CCM nonce must be " + NONCE_BYTES + " bytes");
        }
        CCMModeCipher ccm = CCMBlockCipher.newInstance(AESEngine.newInstance());
        ccm.init(encrypt, new AEADParameters(new KeyParameter(key), TAG_BYTES * 8, nonce));
        return ccm;
    }
}
