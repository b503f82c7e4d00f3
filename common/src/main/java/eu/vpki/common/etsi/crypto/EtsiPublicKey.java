package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.math.ec.ECPoint;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A public key on one of the {@link EtsiCurve}s. Immutable; holds the decoded point so that
 * verification and key agreement never decode it again. Equality is by curve and point.
 */
public final class EtsiPublicKey {
    private final EtsiCurve curve;
    private final ECPublicKeyParameters parameters;
    private final byte[] compressed;
    /** The same key in AWS-LC, made on first native use and kept: CA keys are used again and again. */
    private volatile java.security.PublicKey nativeKey;

    EtsiPublicKey(EtsiCurve curve, ECPoint point) {
        this.curve = curve;
        ECPoint normalized = point.normalize();
        this.parameters = new ECPublicKeyParameters(normalized, curve.domain());
        this.compressed = normalized.getEncoded(true);
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

    public EtsiCurve curve() {
        return curve;
    }

    /** SEC 1 compressed encoding: {@code 02|03 || x}. */
    public byte[] compressed() {
        return compressed.clone();
    }

    /** x coordinate, {@link EtsiCurve#fieldBytes()} long. */
    public byte[] x() {
        return Arrays.copyOfRange(compressed, 1, compressed.length);
    }

    /** Whether y is odd (compressed-y-1 in IEEE 1609.2 terms). */
    public boolean yOdd() {
        return compressed[0] == 0x03;
    }

    /** SEC 1 uncompressed encoding {@code 04 || x || y}. */
    public byte[] uncompressed() {
        return parameters.getQ().getEncoded(false);
    }

    ECPublicKeyParameters parameters() {
        return parameters;
    }

    /** Only for a curve that {@link NativeP256#handles} handles. */
    java.security.PublicKey nativeKey() {
        java.security.PublicKey k = nativeKey;
        if (k == null) {
            k = NativeP256.publicKey(parameters.getQ());
            nativeKey = k;
        }
        return k;
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
