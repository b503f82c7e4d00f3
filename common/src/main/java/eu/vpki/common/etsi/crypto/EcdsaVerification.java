package eu.vpki.common.etsi.crypto;

import org.bouncycastle.crypto.signers.ECDSASigner;

import java.math.BigInteger;

/**
 * ECDSA verification over a digest computed as IEEE 1609.2 specifies: in AWS-LC for nistP256 when
 * {@link NativeP256} is on, else in BouncyCastle. Stateless and thread-safe.
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
        ECDSASigner verifier = new ECDSASigner();
        verifier.init(false, key.parameters());
        return verifier.verifySignature(digest, new BigInteger(1, signature.r()), new BigInteger(1, signature.s()));
    }
}
