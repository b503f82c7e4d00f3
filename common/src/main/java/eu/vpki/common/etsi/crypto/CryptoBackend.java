package eu.vpki.common.etsi.crypto;

/** Which implementation runs the elliptic-curve operations of this JVM, for start-up logs and benchmark reports. */
public final class CryptoBackend {
    private CryptoBackend() {
    }

    /** E.g. "AWS-LC (...) for nistP256 ECDSA and ECDH; BouncyCastle for the brainpool curves and key generation". */
    public static String description() {
        return NativeP256.description();
    }

    /** Whether nistP256 signatures, verifications and key agreements run natively (AWS-LC). */
    public static boolean nativeP256() {
        return NativeP256.enabled();
    }
}
