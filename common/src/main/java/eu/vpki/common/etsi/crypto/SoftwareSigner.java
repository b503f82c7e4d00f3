package eu.vpki.common.etsi.crypto;

import java.security.SecureRandom;

/**
 * {@link EtsiSigner} over an in-memory key: AWS-LC's ECDSA for nistP256 when {@link NativeP256} is
 * on (its nonce then comes from AWS-LC's DRBG, not from {@code random}), the Montgomery brainpool
 * arithmetic for the brainpool curves when {@link MontgomeryBrainpool} is on (nonce from
 * {@code random}), else BouncyCastle's (5-13x faster than SunEC here) with {@code random}.
 */
public final class SoftwareSigner implements EtsiSigner {
    private final EtsiKeyPair keyPair;
    private final SecureRandom random;

    public SoftwareSigner(EtsiKeyPair keyPair, SecureRandom random) {
        this.keyPair = keyPair;
        this.random = random;
    }

    @Override
    public EtsiPublicKey publicKey() {
        return keyPair.publicKey();
    }

    @Override
    public EcdsaSignature signDigest(byte[] digest) {
        EtsiCurve curve = keyPair.curve();
        if (digest.length != curve.hash().length()) {
            throw new IllegalArgumentException("digest must be " + curve.hash().length() + " bytes for " + curve);
        }
        if (NativeP256.handles(curve)) {
            byte[][] rs = NativeP256.sign(keyPair.nativePrivateKey(), digest);
            return new EcdsaSignature(curve, rs[0], rs[1]);
        }
        if (MontgomeryBrainpool.handles(curve)) {
            byte[][] rs = MontgomeryBrainpool.arithmetic(curve).sign(keyPair.scalar(), digest, random);
            return new EcdsaSignature(curve, rs[0], rs[1]);
        }
        return BouncyCastleEc.sign(keyPair, digest, random);
    }
}
