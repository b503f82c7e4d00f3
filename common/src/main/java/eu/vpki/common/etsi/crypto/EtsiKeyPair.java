package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.generators.ECKeyPairGenerator;
import org.bouncycastle.crypto.params.ECKeyGenerationParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.util.BigIntegers;

import java.math.BigInteger;
import java.security.SecureRandom;

/** A private scalar with its public key. The private part never leaves the crypto package except to a key store. */
public final class EtsiKeyPair {
    private final EtsiPublicKey publicKey;
    private final ECPrivateKeyParameters privateKey;
    /** The private key in AWS-LC, made on first native use and kept. */
    private volatile java.security.PrivateKey nativePrivateKey;

    private EtsiKeyPair(EtsiPublicKey publicKey, ECPrivateKeyParameters privateKey) {
        this.publicKey = publicKey;
        this.privateKey = privateKey;
    }

    /** Generates a fresh key pair with the given randomness. */
    public static EtsiKeyPair generate(EtsiCurve curve, SecureRandom random) {
        ECKeyPairGenerator gen = new ECKeyPairGenerator();
        gen.init(new ECKeyGenerationParameters(curve.domain(), random));
        AsymmetricCipherKeyPair kp = gen.generateKeyPair();
        ECPublicKeyParameters pub = (ECPublicKeyParameters) kp.getPublic();
        return new EtsiKeyPair(new EtsiPublicKey(curve, pub.getQ()), (ECPrivateKeyParameters) kp.getPrivate());
    }

    /** Rebuilds a key pair from its private scalar (big-endian, unsigned), e.g. from a key store or a test vector. */
    public static EtsiKeyPair fromPrivateScalar(EtsiCurve curve, byte[] scalar) {
        BigInteger d = new BigInteger(1, scalar);
        if (d.signum() <= 0 || d.compareTo(curve.domain().getN()) >= 0) {
            throw new PkiException(ErrorCode.INVALID_KEY, "private scalar out of range for " + curve);
        }
        ECPrivateKeyParameters priv = new ECPrivateKeyParameters(d, curve.domain());
        return new EtsiKeyPair(new EtsiPublicKey(curve, curve.domain().getG().multiply(d)), priv);
    }

    public EtsiCurve curve() {
        return publicKey.curve();
    }

    public EtsiPublicKey publicKey() {
        return publicKey;
    }

    /** Private scalar, fixed length; only for persisting the key in a key store. */
    public byte[] privateScalar() {
        return BigIntegers.asUnsignedByteArray(curve().fieldBytes(), privateKey.getD());
    }

    ECPrivateKeyParameters privateParameters() {
        return privateKey;
    }

    /** Only for a curve that {@link NativeP256#handles} handles. */
    java.security.PrivateKey nativePrivateKey() {
        java.security.PrivateKey k = nativePrivateKey;
        if (k == null) {
            k = NativeP256.privateKey(privateKey.getD());
            nativePrivateKey = k;
        }
        return k;
    }
}
