package eu.vpki.common.etsi.crypto;

/**
 * Signs with one private key. The software implementation keeps the key in memory; an HSM
 * implementation can replace it without touching the callers. Implementations are thread-safe.
 */
public interface EtsiSigner {
    /** The public key matching the private key used. */
    EtsiPublicKey publicKey();

    default EtsiCurve curve() {
        return publicKey().curve();
    }

    /**
     * Signs a message digest that the caller computed as IEEE 1609.2 specifies
     * (hash over hash(to-be-signed) || hash(signer's certificate or empty)).
     *
     * @param digest exactly {@code curve().hash().length()} bytes
     */
    EcdsaSignature signDigest(byte[] digest);
}
