package eu.vpki.common.etsi.oer;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EcdsaSignature;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.BasePublicEncryptionKey;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.EccP256CurvePoint;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.EccP384CurvePoint;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.EcdsaP256Signature;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.EcdsaP384Signature;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Point256;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Point384;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.PublicEncryptionKey;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.PublicVerificationKey;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Signature;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SymmAlgorithm;
import org.bouncycastle.util.Arrays;

/**
 * Conversions between our key and signature types and the IEEE 1609.2 OER structures. Keys are
 * always written in canonical form (compressed points) and signatures with r as x-only, as real
 * OBU clients require; on input every point form the standard allows is accepted.
 */
public final class OerKeys {
    private OerKeys() {
    }

    // ---- points -------------------------------------------------------------------------------

    /** A P-256-size point (nistP256 or brainpoolP256r1) in canonical, compressed form. */
    public static EccP256CurvePoint compressedP256(EtsiPublicKey key) {
        return key.yOdd() ? EccP256CurvePoint.compressedY1(key.x()) : EccP256CurvePoint.compressedY0(key.x());
    }

    static EccP384CurvePoint compressedP384(EtsiPublicKey key) {
        return key.yOdd() ? EccP384CurvePoint.compressedY1(key.x()) : EccP384CurvePoint.compressedY0(key.x());
    }

    /** Decodes a curve point that must be a full point (compressed or uncompressed, not x-only). */
    public static EtsiPublicKey point(EtsiCurve curve, ASN1Encodable point) {
        if (point instanceof EccP256CurvePoint p) {
            return switch (p.getChoice()) {
                case EccP256CurvePoint.compressedY0 -> sec1(curve, (byte) 2, octets(p.getEccp256CurvePoint()));
                case EccP256CurvePoint.compressedY1 -> sec1(curve, (byte) 3, octets(p.getEccp256CurvePoint()));
                case EccP256CurvePoint.uncompressedP256 -> {
                    Point256 xy = Point256.getInstance(p.getEccp256CurvePoint());
                    yield EtsiPublicKey.fromEncodedPoint(curve, Arrays.concatenate(new byte[]{4},
                            xy.getX().getOctets(), xy.getY().getOctets()));
                }
                default -> throw new PkiException(ErrorCode.INVALID_KEY, "a public key cannot be x-only or fill");
            };
        }
        if (point instanceof EccP384CurvePoint p) {
            return switch (p.getChoice()) {
                case EccP384CurvePoint.compressedY0 -> sec1(curve, (byte) 2, octets(p.getEccP384CurvePoint()));
                case EccP384CurvePoint.compressedY1 -> sec1(curve, (byte) 3, octets(p.getEccP384CurvePoint()));
                case EccP384CurvePoint.uncompressedP384 -> {
                    Point384 xy = Point384.getInstance(p.getEccP384CurvePoint());
                    yield EtsiPublicKey.fromEncodedPoint(curve, Arrays.concatenate(new byte[]{4},
                            xy.getX().getOctets(), xy.getY().getOctets()));
                }
                default -> throw new PkiException(ErrorCode.INVALID_KEY, "a public key cannot be x-only or fill");
            };
        }
        throw new PkiException(ErrorCode.INVALID_KEY, "unexpected point structure " + point.getClass().getSimpleName());
    }

    private static EtsiPublicKey sec1(EtsiCurve curve, byte prefix, byte[] x) {
        return EtsiPublicKey.fromEncodedPoint(curve, Arrays.prepend(x, prefix));
    }

    private static byte[] octets(ASN1Encodable e) {
        return ASN1OctetString.getInstance(e).getOctets();
    }

    /** Whether an encoded point is in canonical (compressed) form. */
    public static boolean isCompressed(ASN1Encodable point) {
        if (point instanceof EccP256CurvePoint p) {
            return p.getChoice() == EccP256CurvePoint.compressedY0 || p.getChoice() == EccP256CurvePoint.compressedY1;
        }
        if (point instanceof EccP384CurvePoint p) {
            return p.getChoice() == EccP384CurvePoint.compressedY0 || p.getChoice() == EccP384CurvePoint.compressedY1;
        }
        return false;
    }

    // ---- verification keys --------------------------------------------------------------------

    public static PublicVerificationKey verificationKey(EtsiPublicKey key) {
        return switch (key.curve()) {
            case NIST_P256 -> PublicVerificationKey.ecdsaNistP256(compressedP256(key));
            case BRAINPOOL_P256R1 -> PublicVerificationKey.ecdsaBrainpoolP256r1(compressedP256(key));
            case BRAINPOOL_P384R1 -> PublicVerificationKey.ecdsaBrainpoolP384r1(compressedP384(key));
        };
    }

    public static EtsiCurve curveOf(PublicVerificationKey key) {
        return switch (key.getChoice()) {
            case PublicVerificationKey.ecdsaNistP256 -> EtsiCurve.NIST_P256;
            case PublicVerificationKey.ecdsaBrainpoolP256r1 -> EtsiCurve.BRAINPOOL_P256R1;
            case PublicVerificationKey.ecdsaBrainpoolP384r1 -> EtsiCurve.BRAINPOOL_P384R1;
            default -> throw new PkiException(ErrorCode.UNSUPPORTED_ALGORITHM,
                    "verification key choice " + key.getChoice() + " not supported");
        };
    }

    public static EtsiPublicKey fromVerificationKey(PublicVerificationKey key) {
        return point(curveOf(key), key.getPublicVerificationKey());
    }

    /** The COER encoding of a verification key: what a keyTag HMAC is computed over. */
    public static byte[] encodeVerificationKey(EtsiPublicKey key) {
        return Coer.encode(verificationKey(key), Coer.Type.PUBLIC_VERIFICATION_KEY);
    }

    // ---- encryption keys ----------------------------------------------------------------------

    public static PublicEncryptionKey encryptionKey(EtsiPublicKey key) {
        BasePublicEncryptionKey base = switch (key.curve()) {
            case NIST_P256 -> BasePublicEncryptionKey.eciesNistP256(compressedP256(key));
            case BRAINPOOL_P256R1 -> BasePublicEncryptionKey.eciesBrainpoolP256r1(compressedP256(key));
            case BRAINPOOL_P384R1 -> throw new PkiException(ErrorCode.WRONG_CURVE,
                    "IEEE 1609.2 defines no ECIES encryption key on brainpoolP384r1");
        };
        return new PublicEncryptionKey(SymmAlgorithm.aes128Ccm, base);
    }

    public static EtsiPublicKey fromEncryptionKey(PublicEncryptionKey key) {
        if (!SymmAlgorithm.aes128Ccm.equals(key.getSupportedSymmAlg())) {
            throw new PkiException(ErrorCode.UNSUPPORTED_ALGORITHM, "only aes128Ccm encryption keys are supported");
        }
        BasePublicEncryptionKey base = key.getPublicKey();
        EtsiCurve curve = switch (base.getChoice()) {
            case BasePublicEncryptionKey.eciesNistP256 -> EtsiCurve.NIST_P256;
            case BasePublicEncryptionKey.eciesBrainpoolP256r1 -> EtsiCurve.BRAINPOOL_P256R1;
            default -> throw new PkiException(ErrorCode.UNSUPPORTED_ALGORITHM,
                    "encryption key choice " + base.getChoice() + " not supported");
        };
        return point(curve, base.getBasePublicEncryptionKey());
    }

    // ---- signatures ---------------------------------------------------------------------------

    /** Canonical signature structure: r as x-only. */
    public static Signature signature(EcdsaSignature sig) {
        return switch (sig.curve()) {
            case NIST_P256 -> Signature.ecdsaNistP256Signature(
                    new EcdsaP256Signature(EccP256CurvePoint.xOnly(sig.r()), new DEROctetString(sig.s())));
            case BRAINPOOL_P256R1 -> Signature.ecdsaBrainpoolP256r1Signature(
                    new EcdsaP256Signature(EccP256CurvePoint.xOnly(sig.r()), new DEROctetString(sig.s())));
            case BRAINPOOL_P384R1 -> Signature.ecdsaBrainpoolP384r1Signature(
                    new EcdsaP384Signature(EccP384CurvePoint.xOnly(sig.r()), new DEROctetString(sig.s())));
        };
    }

    public static EtsiCurve curveOf(Signature sig) {
        return switch (sig.getChoice()) {
            case Signature.ecdsaNistP256Signature -> EtsiCurve.NIST_P256;
            case Signature.ecdsaBrainpoolP256r1Signature -> EtsiCurve.BRAINPOOL_P256R1;
            case Signature.ecdsaBrainpoolP384r1Signature -> EtsiCurve.BRAINPOOL_P384R1;
            default -> throw new PkiException(ErrorCode.UNSUPPORTED_ALGORITHM, "signature choice " + sig.getChoice());
        };
    }

    /**
     * Reads a signature. r may be x-only or a compressed point (its x coordinate is r); an
     * uncompressed r is accepted too. Values of the wrong length are refused.
     */
    public static EcdsaSignature fromSignature(Signature sig) {
        EtsiCurve curve = curveOf(sig);
        byte[] r;
        byte[] s;
        if (curve == EtsiCurve.BRAINPOOL_P384R1) {
            EcdsaP384Signature e = EcdsaP384Signature.getInstance(sig.getSignature());
            r = rValue(e.getRSig().getChoice(), e.getRSig().getEccP384CurvePoint());
            s = e.getSSig().getOctets();
        } else {
            EcdsaP256Signature e = EcdsaP256Signature.getInstance(sig.getSignature());
            r = rValue(e.getRSig().getChoice(), e.getRSig().getEccp256CurvePoint());
            s = e.getSSig().getOctets();
        }
        if (r.length != curve.fieldBytes() || s.length != curve.fieldBytes()) {
            throw new PkiException(ErrorCode.INVALID_SIGNATURE, "signature values have the wrong length for " + curve);
        }
        return new EcdsaSignature(curve, r, s);
    }

    private static byte[] rValue(int choice, ASN1Encodable value) {
        // choices 0 x-only, 1 fill, 2/3 compressed, 4 uncompressed: same numbering on both point types
        return switch (choice) {
            case EccP256CurvePoint.xonly, EccP256CurvePoint.compressedY0, EccP256CurvePoint.compressedY1 -> octets(value);
            case EccP256CurvePoint.uncompressedP256 -> value instanceof Point256 p
                    ? p.getX().getOctets()
                    : Point384.getInstance(value).getX().getOctets();
            default -> throw new PkiException(ErrorCode.INVALID_SIGNATURE, "signature r cannot be 'fill'");
        };
    }

    /** Whether a signature is canonical (r as x-only). */
    public static boolean isCanonical(Signature sig) {
        if (curveOf(sig) == EtsiCurve.BRAINPOOL_P384R1) {
            return EcdsaP384Signature.getInstance(sig.getSignature()).getRSig().getChoice() == EccP384CurvePoint.xonly;
        }
        return EcdsaP256Signature.getInstance(sig.getSignature()).getRSig().getChoice() == EccP256CurvePoint.xonly;
    }
}
