package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * ECIES encryption of a 16-byte data-encryption key, as IEEE 1609.2 clause 5.3.5 defines it (IEEE
 * 1363a ECIES in non-DHAES mode, profiled by ETSI TS 103 097 for {@code eciesNistP256} and
 * {@code eciesBrainpoolP256r1}):
 * <ol>
 *   <li>ephemeral key pair (v, V) on the recipient's curve;</li>
 *   <li>Z = x coordinate of v&middot;R (ECSVDP-DH; the curves have cofactor 1, so DH and DHC agree);</li>
 *   <li>K1 || K2 = KDF2(Z, P1) with SHA-256, counter from 1, 16 + 32 bytes (IEEE 1363a KDF2: the
 *       counter is a 4-byte big-endian value hashed after Z and before P1);</li>
 *   <li>c = k XOR K1; t = the first 16 bytes of HMAC-SHA256(K2, c) (MAC1, P2 empty).</li>
 * </ol>
 * P1 is the hash of the recipient information: for {@code certRecipInfo} the whole-certificate hash
 * of the recipient certificate's COER encoding. Checked against the IEEE 1609.2a-2017 Annex D test
 * vectors and against BouncyCastle's own {@code ETSIKEMwithSHA256} cipher (see the tests).
 * Stateless and thread-safe.
 */
public final class Ecies {
    /** Length of the data-encryption key and of c. */
    public static final int KEY_BYTES = 16;
    /** Length of the authentication tag t. */
    public static final int TAG_BYTES = 16;
    private static final int MAC_KEY_BYTES = 32;

    private Ecies() {
    }

    /**
     * Encrypts a data-encryption key for a recipient public key with a fresh ephemeral key pair.
     *
     * @param p1 hash of the recipient information (SHA-256 of the recipient certificate for certRecipInfo)
     * @throws PkiException {@link ErrorCode#WRONG_CURVE} for a curve without ECIES (brainpoolP384r1)
     */
    public static EciesEncryptedKey encrypt(EtsiPublicKey recipient, byte[] dataKey, byte[] p1, SecureRandom random) {
        return encrypt(recipient, dataKey, p1, EtsiKeyPair.generate(recipient.curve(), random));
    }

    /** Encryption with a given ephemeral key pair: the known-answer tests fix it, nothing else may. */
    static EciesEncryptedKey encrypt(EtsiPublicKey recipient, byte[] dataKey, byte[] p1, EtsiKeyPair ephemeral) {
        requireEncryptionCurve(recipient.curve());
        if (dataKey == null || dataKey.length != KEY_BYTES || p1 == null) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "ECIES encrypts a " + KEY_BYTES + "-byte key with a P1 value");
        }
        byte[] k1k2 = deriveForRecipient(ephemeral, recipient, p1);
        try {
            byte[] c = new byte[KEY_BYTES];
            for (int i = 0; i < KEY_BYTES; i++) {
                c[i] = (byte) (dataKey[i] ^ k1k2[i]);
            }
            return new EciesEncryptedKey(ephemeral.publicKey(), c, mac1(Arrays.copyOfRange(k1k2, KEY_BYTES, k1k2.length), c));
        } finally {
            Arrays.fill(k1k2, (byte) 0);
        }
    }

    /**
     * Recovers the data-encryption key; the tag is checked (in constant time) before anything is
     * decrypted.
     *
     * @throws PkiException {@link ErrorCode#WRONG_CURVE} when V is not on the recipient key's curve,
     *                      {@link ErrorCode#DECRYPTION_FAILED} when the tag does not verify
     */
    public static byte[] decrypt(EtsiKeyPair recipient, EciesEncryptedKey encrypted, byte[] p1) {
        return decrypt(new SoftwareKeyAgreement(recipient), encrypted, p1);
    }

    /**
     * As {@link #decrypt(EtsiKeyPair, EciesEncryptedKey, byte[])}, Z computed by {@code recipient}
     * (in memory or in a token); KDF2, the tag and the XOR run here.
     *
     * @throws PkiException as above; {@link ErrorCode#KEY_STORE_FAILURE} when the recipient's token fails
     */
    public static byte[] decrypt(EtsiKeyAgreement recipient, EciesEncryptedKey encrypted, byte[] p1) {
        if (encrypted.v().curve() != recipient.curve()) {
            throw new PkiException(ErrorCode.WRONG_CURVE, "ephemeral key on " + encrypted.v().curve()
                    + " but our encryption key is on " + recipient.curve());
        }
        requireEncryptionCurve(recipient.curve());
        byte[] k1k2 = kdf2AndWipe(recipient.sharedX(encrypted.v()), p1);
        try {
            byte[] c = encrypted.c();
            byte[] expectedTag = mac1(Arrays.copyOfRange(k1k2, KEY_BYTES, k1k2.length), c);
            if (!MessageDigest.isEqual(expectedTag, encrypted.t())) {
                throw new PkiException(ErrorCode.DECRYPTION_FAILED, "ECIES tag does not verify");
            }
            byte[] dataKey = new byte[KEY_BYTES];
            for (int i = 0; i < KEY_BYTES; i++) {
                dataKey[i] = (byte) (c[i] ^ k1k2[i]);
            }
            return dataKey;
        } finally {
            Arrays.fill(k1k2, (byte) 0);
        }
    }

    /** K1 || K2 = KDF2(Z, P1) for an encryption: Z from the ephemeral private key and the recipient's key. */
    private static byte[] deriveForRecipient(EtsiKeyPair ephemeral, EtsiPublicKey recipient, byte[] p1) {
        return kdf2AndWipe(sharedSecretWithRecipient(ephemeral, recipient), p1);
    }

    private static byte[] kdf2AndWipe(byte[] z, byte[] p1) {
        try {
            return kdf2(z, p1, KEY_BYTES + MAC_KEY_BYTES);
        } finally {
            Arrays.fill(z, (byte) 0);
        }
    }

    /**
     * Z, the x coordinate of ours&middot;theirs (ECSVDP-DH), for a decryption: their key is the sender's
     * ephemeral key, seen once. AWS-LC (nistP256, when {@link NativeP256} is on) and the Montgomery
     * brainpool ladder ({@link MontgomeryBrainpool}) run in constant time, as our long-term private
     * key requires; BouncyCastle's ECDH, the fallback, does not claim to ({@link BouncyCastleEc}).
     *
     * @throws PkiException {@link ErrorCode#DECRYPTION_FAILED} when the agreement fails
     */
    static byte[] sharedSecret(EtsiKeyPair ours, EtsiPublicKey theirs) {
        byte[] z = fastSharedX(ours, theirs, ErrorCode.DECRYPTION_FAILED);
        return z != null ? z : BouncyCastleEc.sharedX(ours, theirs);
    }

    /**
     * Z for an encryption: the ephemeral private scalar times the recipient's public key.
     * Recipients are CA encryption keys (an EA's, an AA's) held decoded for as long as the trust
     * list names them, with each backend's form of the key kept. nistP256 runs in AWS-LC when
     * {@link NativeP256} is on (ECDH with the recipient's AWS-LC key, made on its first use, and
     * the ephemeral private key AWS-LC already holds from generating it): about 50 µs, where
     * BouncyCastle's comb below takes about 75. The brainpool curves, and nistP256 where AWS-LC is
     * off, use a fixed-point comb whose table of multiples of the recipient's point is built once
     * and kept with the key: the Montgomery brainpool comb (built on the key's second use; the
     * first uses its ladder), BouncyCastle's comb otherwise. All of these run in constant time for
     * the ephemeral scalar (the combs read their tables in constant time), so it is as protected as
     * a signing nonce. Same result as ECSVDP-DH (the IEEE 1609.2a vectors, the Wycheproof ECDH
     * vectors in this direction and the decryption tests check it).
     *
     * @throws PkiException {@link ErrorCode#INVALID_KEY} when the agreement fails
     */
    static byte[] sharedSecretWithRecipient(EtsiKeyPair ephemeral, EtsiPublicKey recipient) {
        byte[] z = fastSharedX(ephemeral, recipient, ErrorCode.INVALID_KEY);
        return z != null ? z : BouncyCastleEc.sharedXWithComb(ephemeral, recipient);
    }

    /**
     * Z in AWS-LC (nistP256) or in the Montgomery brainpool arithmetic (which picks its ladder or,
     * for a point used again and again, its comb); null where neither runs the curve in this JVM.
     *
     * @throws PkiException {@link ErrorCode#WRONG_CURVE} for keys on two curves, {@code onFailure}
     *                      when AWS-LC refuses the agreement
     */
    private static byte[] fastSharedX(EtsiKeyPair ours, EtsiPublicKey theirs, ErrorCode onFailure) {
        if (ours.curve() != theirs.curve()) {
            throw new PkiException(ErrorCode.WRONG_CURVE, "ECDH between " + ours.curve() + " and " + theirs.curve());
        }
        if (NativeP256.handles(ours.curve())) {
            try {
                return NativeP256.agree(ours.nativePrivateKey(), theirs.nativeKey());
            } catch (java.security.GeneralSecurityException | RuntimeException e) {
                throw new PkiException(onFailure, "ECDH key agreement with " + theirs + " failed: " + e.getMessage(), e);
            }
        }
        if (MontgomeryBrainpool.handles(ours.curve())) {
            return MontgomeryBrainpool.arithmetic(ours.curve()).sharedX(ours.scalar(), theirs.brainpoolPoint());
        }
        return null;
    }

    /** IEEE 1363a KDF2 with SHA-256: SHA-256(Z || counter || P) for counter = 1, 2, ..., truncated to length. */
    static byte[] kdf2(byte[] z, byte[] p, int length) {
        byte[] out = new byte[length];
        byte[] counter = new byte[4];
        for (int offset = 0, i = 1; offset < length; offset += HashAlgorithm.SHA256.length(), i++) {
            counter[0] = (byte) (i >>> 24);
            counter[1] = (byte) (i >>> 16);
            counter[2] = (byte) (i >>> 8);
            counter[3] = (byte) i;
            byte[] block = HashAlgorithm.SHA256.digest(z, counter, p);
            System.arraycopy(block, 0, out, offset, Math.min(block.length, length - offset));
        }
        return out;
    }

    /** IEEE 1609.2 MAC1: HMAC-SHA256 truncated to its first 16 bytes. */
    static byte[] mac1(byte[] key, byte[] message) {
        HMac hmac = new HMac(SHA256Digest.newInstance());
        hmac.init(new KeyParameter(key));
        hmac.update(message, 0, message.length);
        byte[] full = new byte[hmac.getMacSize()];
        hmac.doFinal(full, 0);
        return Arrays.copyOf(full, TAG_BYTES);
    }

    private static void requireEncryptionCurve(EtsiCurve curve) {
        if (!curve.encryptionCapable()) {
            throw new PkiException(ErrorCode.WRONG_CURVE, "IEEE 1609.2 defines no ECIES on " + curve);
        }
    }
}
