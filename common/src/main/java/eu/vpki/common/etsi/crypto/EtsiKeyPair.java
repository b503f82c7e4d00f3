package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.util.BigIntegers;

import java.math.BigInteger;
import java.security.SecureRandom;

/**
 * A private scalar with its public key. The private part never leaves the crypto package except to
 * a key store. Key generation takes its randomness from the caller, whichever backend computes
 * d&middot;G: the scalar is drawn from it ({@link EtsiCurve#randomScalar}) and multiplied in AWS-LC for
 * nistP256 ({@link NativeP256#keyPair}), in {@link BrainpoolCurve} for the brainpool curves, and in
 * BouncyCastle where those backends are off.
 */
public final class EtsiKeyPair {
    private final EtsiPublicKey publicKey;
    /** The private scalar, big-endian, {@link EtsiCurve#fieldBytes()} long. */
    private final byte[] scalar;
    /** BouncyCastle's form, made on first use. */
    private volatile ECPrivateKeyParameters privateKey;
    /** The private key in AWS-LC, made on first native use and kept. */
    private volatile java.security.PrivateKey nativePrivateKey;

    /** A key pair from its public key and its private scalar ({@link EtsiCurve#fieldBytes()} bytes, in range). */
    EtsiKeyPair(EtsiPublicKey publicKey, byte[] scalar) {
        this.publicKey = publicKey;
        this.scalar = scalar;
    }

    /** A nistP256 key pair whose private key AWS-LC already holds. */
    EtsiKeyPair(EtsiPublicKey publicKey, byte[] scalar, java.security.PrivateKey nativePrivateKey) {
        this(publicKey, scalar);
        this.nativePrivateKey = nativePrivateKey;
    }

    /** Generates a fresh key pair with the given randomness. */
    public static EtsiKeyPair generate(EtsiCurve curve, SecureRandom random) {
        if (NativeP256.generatesKeys(curve)) {
            return NativeP256.keyPair(curve.randomScalar(random));
        }
        if (MontgomeryBrainpool.handles(curve)) {
            BrainpoolCurve arithmetic = MontgomeryBrainpool.arithmetic(curve);
            byte[] d = arithmetic.randomScalar(random);
            return new EtsiKeyPair(new EtsiPublicKey(curve, arithmetic.multiplyBase(d)), d);
        }
        return BouncyCastleEc.generate(curve, random);
    }

    /** Rebuilds a key pair from its private scalar (big-endian, unsigned), e.g. from a key store or a test vector. */
    public static EtsiKeyPair fromPrivateScalar(EtsiCurve curve, byte[] scalar) {
        BigInteger d = new BigInteger(1, scalar);
        if (d.signum() <= 0 || d.compareTo(curve.domain().getN()) >= 0) {
            throw new PkiException(ErrorCode.INVALID_KEY, "private scalar out of range for " + curve);
        }
        byte[] fixed = BigIntegers.asUnsignedByteArray(curve.fieldBytes(), d);
        if (NativeP256.generatesKeys(curve)) {
            return NativeP256.keyPair(fixed);
        }
        if (MontgomeryBrainpool.handles(curve)) {
            return new EtsiKeyPair(new EtsiPublicKey(curve, MontgomeryBrainpool.arithmetic(curve).multiplyBase(fixed)), fixed);
        }
        return new EtsiKeyPair(BouncyCastleEc.publicKey(curve, d), fixed);
    }

    public EtsiCurve curve() {
        return publicKey.curve();
    }

    public EtsiPublicKey publicKey() {
        return publicKey;
    }

    /** Private scalar, fixed length; only for persisting the key in a key store. */
    public byte[] privateScalar() {
        return scalar.clone();
    }

    /** The private scalar itself (not a copy), for the crypto backends. */
    byte[] scalar() {
        return scalar;
    }

    ECPrivateKeyParameters privateParameters() {
        ECPrivateKeyParameters p = privateKey;
        if (p == null) {
            p = new ECPrivateKeyParameters(new BigInteger(1, scalar), curve().domain());
            privateKey = p;
        }
        return p;
    }

    /** Only for a curve that {@link NativeP256#handles} handles. */
    java.security.PrivateKey nativePrivateKey() {
        java.security.PrivateKey k = nativePrivateKey;
        if (k == null) {
            k = NativeP256.privateKey(privateParameters().getD());
            nativePrivateKey = k;
        }
        return k;
    }
}
