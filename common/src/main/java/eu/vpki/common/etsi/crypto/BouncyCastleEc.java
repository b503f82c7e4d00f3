package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.agreement.ECDHBasicAgreement;
import org.bouncycastle.crypto.generators.ECKeyPairGenerator;
import org.bouncycastle.crypto.params.ECKeyGenerationParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;
import org.bouncycastle.util.BigIntegers;

import java.math.BigInteger;
import java.security.SecureRandom;

/**
 * The elliptic-curve operations in BouncyCastle's lightweight API, on every curve: what runs where
 * neither {@link NativeP256} (nistP256) nor {@link MontgomeryBrainpool} (the brainpool curves) does,
 * nistP256 key generation, and the reference the other backends are tested against. Stateless and
 * thread-safe.
 *
 * <p>BouncyCastle's ECDSA signing and key generation use its fixed-point comb, which reads its
 * table in constant time; its ECDH ({@link ECDHBasicAgreement}) multiplies with the curve's default
 * width-w NAF multiplier, which branches on the scalar's digits. That is why the brainpool curves,
 * on which every ECIES decryption used it, now have their own constant-time ladder.
 */
final class BouncyCastleEc {
    private static final FixedPointCombMultiplier FIXED_POINT = new FixedPointCombMultiplier();

    private BouncyCastleEc() {
    }

    /**
     * Decodes a SEC 1 point and checks that it is on the curve.
     *
     * @throws PkiException {@link ErrorCode#INVALID_KEY} when it is not
     */
    static EtsiPublicKey decode(EtsiCurve curve, byte[] encoded) {
        try {
            ECPoint p = curve.domain().getCurve().decodePoint(encoded);
            if (p.isInfinity() || !p.isValid()) {
                throw new PkiException(ErrorCode.INVALID_KEY, "point is not on " + curve);
            }
            return new EtsiPublicKey(curve, p);
        } catch (IllegalArgumentException e) {
            throw new PkiException(ErrorCode.INVALID_KEY, "point is not on " + curve + ": " + e.getMessage(), e);
        }
    }

    /** A fresh key pair drawn from {@code random}. */
    static EtsiKeyPair generate(EtsiCurve curve, SecureRandom random) {
        ECKeyPairGenerator gen = new ECKeyPairGenerator();
        gen.init(new ECKeyGenerationParameters(curve.domain(), random));
        AsymmetricCipherKeyPair kp = gen.generateKeyPair();
        ECPublicKeyParameters pub = (ECPublicKeyParameters) kp.getPublic();
        ECPrivateKeyParameters priv = (ECPrivateKeyParameters) kp.getPrivate();
        return new EtsiKeyPair(new EtsiPublicKey(curve, pub.getQ()), BigIntegers.asUnsignedByteArray(curve.fieldBytes(), priv.getD()));
    }

    /** d&middot;G. */
    static EtsiPublicKey publicKey(EtsiCurve curve, BigInteger d) {
        return new EtsiPublicKey(curve, FIXED_POINT.multiply(curve.domain().getG(), d));
    }

    static EcdsaSignature sign(EtsiKeyPair key, byte[] digest, SecureRandom random) {
        ECDSASigner signer = new ECDSASigner();
        signer.init(true, new ParametersWithRandom(key.privateParameters(), random));
        BigInteger[] rs = signer.generateSignature(digest);
        int n = key.curve().fieldBytes();
        return new EcdsaSignature(key.curve(), BigIntegers.asUnsignedByteArray(n, rs[0]), BigIntegers.asUnsignedByteArray(n, rs[1]));
    }

    static boolean verify(EtsiPublicKey key, byte[] digest, EcdsaSignature signature) {
        ECDSASigner verifier = new ECDSASigner();
        verifier.init(false, key.parameters());
        return verifier.verifySignature(digest, new BigInteger(1, signature.r()), new BigInteger(1, signature.s()));
    }

    /**
     * The x coordinate of ours&middot;theirs (ECSVDP-DH), {@link EtsiCurve#fieldBytes()} long.
     *
     * @throws PkiException {@link ErrorCode#DECRYPTION_FAILED} when the agreement fails
     */
    static byte[] sharedX(EtsiKeyPair ours, EtsiPublicKey theirs) {
        try {
            ECDHBasicAgreement agreement = new ECDHBasicAgreement();
            agreement.init(ours.privateParameters());
            return BigIntegers.asUnsignedByteArray(ours.curve().fieldBytes(), agreement.calculateAgreement(theirs.parameters()));
        } catch (RuntimeException e) {
            throw new PkiException(ErrorCode.DECRYPTION_FAILED, "ECDH key agreement failed: " + e.getMessage(), e);
        }
    }

    /**
     * The x coordinate of d&middot;R for a recipient key R used again and again: BouncyCastle's fixed-point
     * comb, whose table of multiples of R it builds on first use and keeps with the point.
     */
    static byte[] sharedXWithComb(EtsiKeyPair ephemeral, EtsiPublicKey recipient) {
        ECPoint shared = FIXED_POINT.multiply(recipient.parameters().getQ(), ephemeral.privateParameters().getD()).normalize();
        if (shared.isInfinity()) {
            throw new PkiException(ErrorCode.INVALID_KEY, "ECDH with " + recipient + " gave the point at infinity");
        }
        return BigIntegers.asUnsignedByteArray(recipient.curve().fieldBytes(), shared.getAffineXCoord().toBigInteger());
    }
}
