package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.util.BigIntegers;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A public key on one of the {@link EtsiCurve}s. Immutable; holds the validated affine point and,
 * made on first use and kept, the form each backend computes with (BouncyCastle's point, AWS-LC's
 * key, the Montgomery brainpool point with its tables), so that verification and key agreement
 * never decode it again. Equality is by curve and point.
 */
public final class EtsiPublicKey {
    private final EtsiCurve curve;
    private final byte[] x;
    private final byte[] y;
    private final byte[] compressed;
    /** BouncyCastle's form; made on first use unless the key came from BouncyCastle. */
    private volatile ECPublicKeyParameters parameters;
    /** The same key in AWS-LC, made on first native use and kept: CA keys are used again and again. */
    private volatile java.security.PublicKey nativeKey;
    /** The Montgomery brainpool form; made on first use unless the key came from that backend. */
    private volatile BrainpoolCurve.PublicPoint brainpoolPoint;

    /** A point BouncyCastle computed or decoded (on the curve). */
    EtsiPublicKey(EtsiCurve curve, ECPoint point) {
        ECPoint normalized = point.normalize();
        this.curve = curve;
        this.x = BigIntegers.asUnsignedByteArray(curve.fieldBytes(), normalized.getAffineXCoord().toBigInteger());
        this.y = BigIntegers.asUnsignedByteArray(curve.fieldBytes(), normalized.getAffineYCoord().toBigInteger());
        this.compressed = compress(x, y);
        this.parameters = new ECPublicKeyParameters(normalized, curve.domain());
    }

    /** A point the Montgomery brainpool arithmetic computed or decoded (on the curve). */
    EtsiPublicKey(EtsiCurve curve, BrainpoolCurve.PublicPoint point) {
        this.curve = curve;
        this.x = point.x;
        this.y = point.y;
        this.compressed = compress(x, y);
        this.brainpoolPoint = point;
    }

    /** A nistP256 point AWS-LC computed (on the curve), with AWS-LC's key for it. */
    EtsiPublicKey(EtsiCurve curve, byte[] x, byte[] y, java.security.PublicKey nativeKey) {
        this.curve = curve;
        this.x = x;
        this.y = y;
        this.compressed = compress(x, y);
        this.nativeKey = nativeKey;
    }

    private static byte[] compress(byte[] x, byte[] y) {
        byte[] out = new byte[x.length + 1];
        out[0] = (byte) ((y[y.length - 1] & 1) == 0 ? 0x02 : 0x03);
        System.arraycopy(x, 0, out, 1, x.length);
        return out;
    }

    /**
     * Decodes a point in SEC 1 form (compressed {@code 02|03 || x} or uncompressed {@code 04 || x || y}).
     *
     * @throws PkiException {@link ErrorCode#INVALID_KEY} when the bytes are not a point on the curve
     */
    public static EtsiPublicKey fromEncodedPoint(EtsiCurve curve, byte[] encoded) {
        int n = curve.fieldBytes();
        if (encoded == null || !(encoded.length == n + 1 || encoded.length == 2 * n + 1)) {
            throw new PkiException(ErrorCode.INVALID_KEY, "public key on " + curve + " must be "
                    + (n + 1) + " or " + (2 * n + 1) + " bytes");
        }
        if (MontgomeryBrainpool.handles(curve)) {
            try {
                return new EtsiPublicKey(curve, MontgomeryBrainpool.arithmetic(curve).decode(encoded));
            } catch (IllegalArgumentException e) {
                throw new PkiException(ErrorCode.INVALID_KEY, "point is not on " + curve + ": " + e.getMessage(), e);
            }
        }
        return BouncyCastleEc.decode(curve, encoded);
    }

    public EtsiCurve curve() {
        return curve;
    }

    /** SEC 1 compressed encoding: {@code 02|03 || x}. */
    public byte[] compressed() {
        return compressed.clone();
    }

    /** x coordinate, {@link EtsiCurve#fieldBytes()} long. */
    public byte[] x() {
        return x.clone();
    }

    /** Whether y is odd (compressed-y-1 in IEEE 1609.2 terms). */
    public boolean yOdd() {
        return compressed[0] == 0x03;
    }

    /** SEC 1 uncompressed encoding {@code 04 || x || y}. */
    public byte[] uncompressed() {
        byte[] out = new byte[1 + x.length + y.length];
        out[0] = 0x04;
        System.arraycopy(x, 0, out, 1, x.length);
        System.arraycopy(y, 0, out, 1 + x.length, y.length);
        return out;
    }

    /** BouncyCastle's form of the key (for the BouncyCastle backend and tests). */
    ECPublicKeyParameters parameters() {
        ECPublicKeyParameters p = parameters;
        if (p == null) {
            ECPoint point = curve.domain().getCurve().createPoint(new BigInteger(1, x), new BigInteger(1, y));
            p = new ECPublicKeyParameters(point, curve.domain());
            parameters = p;
        }
        return p;
    }

    /** Only for a curve that {@link NativeP256#handles} handles. */
    java.security.PublicKey nativeKey() {
        java.security.PublicKey k = nativeKey;
        if (k == null) {
            k = NativeP256.publicKey(parameters().getQ());
            nativeKey = k;
        }
        return k;
    }

    /** Only for a curve that {@link MontgomeryBrainpool#handles} handles. */
    BrainpoolCurve.PublicPoint brainpoolPoint() {
        BrainpoolCurve.PublicPoint p = brainpoolPoint;
        if (p == null) {
            p = MontgomeryBrainpool.arithmetic(curve).fromAffine(new BigInteger(1, x), new BigInteger(1, y));
            brainpoolPoint = p;
        }
        return p;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EtsiPublicKey k && k.curve == curve && Arrays.equals(k.compressed, compressed);
    }

    @Override
    public int hashCode() {
        return 31 * curve.hashCode() + Arrays.hashCode(compressed);
    }

    @Override
    public String toString() {
        return curve + ":" + HexFormat.of().formatHex(compressed);
    }
}
