package eu.vpki.common.etsi.crypto;

/**
 * ECDSA verification over a digest computed as IEEE 1609.2 specifies: in AWS-LC for nistP256 when
 * {@link NativeP256} is on, in the Montgomery brainpool arithmetic for the brainpool curves when
 * {@link MontgomeryBrainpool} is on, else in BouncyCastle. Stateless and thread-safe.
 */
public final class EcdsaVerification {
    private EcdsaVerification() {
    }

    /**
     * @return whether the signature verifies; false also for a curve mismatch or a malformed value
     */
    public static boolean verify(EtsiPublicKey key, byte[] digest, EcdsaSignature signature) {
        if (signature.curve() != key.curve() || digest.length != key.curve().hash().length()) {
            return false;
        }
        if (NativeP256.handles(key.curve())) {
            try {
                return NativeP256.verify(key.nativeKey(), digest, signature.r(), signature.s());
            } catch (IllegalStateException e) { // AWS-LC refused a key BouncyCastle accepted: not a valid signature for us
                return false;
            }
        }
        if (MontgomeryBrainpool.handles(key.curve())) {
            return MontgomeryBrainpool.arithmetic(key.curve()).verify(key.brainpoolPoint(), digest, signature.r(), signature.s());
        }
        return BouncyCastleEc.verify(key, digest, signature);
    }
}
