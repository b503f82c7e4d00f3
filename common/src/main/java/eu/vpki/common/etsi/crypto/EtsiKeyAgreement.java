package eu.vpki.common.etsi.crypto;

/**
 * The private half of an encryption key, used only for ECSVDP-DH: the decryption side of ECIES
 * (the EA's and AA's encryption keys). The software implementation ({@link SoftwareKeyAgreement})
 * keeps the scalar in memory; the PKCS#11 one ({@code eu.vpki.common.etsi.crypto.pkcs11.pkcs11}) derives Z inside
 * the token, so the private key never leaves it. Implementations are thread-safe.
 */
public interface EtsiKeyAgreement {
    /** The public key matching the private key used. */
    EtsiPublicKey publicKey();

    default EtsiCurve curve() {
        return publicKey().curve();
    }

    /**
     * Z, the x coordinate of d&middot;theirs, {@link EtsiCurve#fieldBytes()} long. The caller wipes it
     * after use.
     *
     * @throws eu.vpki.common.error.PkiException {@link eu.vpki.common.error.ErrorCode#WRONG_CURVE}
     *         when {@code theirs} is on another curve; {@link eu.vpki.common.error.ErrorCode#DECRYPTION_FAILED}
     *         when the agreement fails for this input; {@link eu.vpki.common.error.ErrorCode#KEY_STORE_FAILURE}
     *         when the key store (a token) fails
     */
    byte[] sharedX(EtsiPublicKey theirs);
}
