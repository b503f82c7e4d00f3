package eu.vpki.common.etsi.crypto;

/** Which implementation runs the elliptic-curve operations of this JVM, for start-up logs and benchmark reports. */
public final class CryptoBackend {
    private CryptoBackend() {
    }

    /**
     * E.g. "nistP256: AWS-LC (...) for ECDSA and ECDH, BouncyCastle for key generation;
     * brainpool: vpki Montgomery arithmetic (...) for brainpoolP256r1 and brainpoolP384r1".
     */
    public static String description() {
        return "nistP256: " + NativeP256.description() + "; brainpool: " + MontgomeryBrainpool.description();
    }

    /** Whether nistP256 signatures, verifications and key agreements run natively (AWS-LC). */
    public static boolean nativeP256() {
        return NativeP256.enabled();
    }

    /** Whether the brainpool curves run in the Montgomery arithmetic (else in BouncyCastle). */
    public static boolean montgomeryBrainpool() {
        return MontgomeryBrainpool.enabled();
    }
}
