package eu.vpki.common.etsi.crypto;

import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x9.ECNamedCurveTable;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECNamedDomainParameters;
import org.bouncycastle.util.BigIntegers;

import java.math.BigInteger;
import java.security.SecureRandom;

/** The elliptic curves of IEEE 1609.2 / TS 103 097 that this PKI signs and encrypts with. */
public enum EtsiCurve {
    NIST_P256("secp256r1", 32, HashAlgorithm.SHA256, true), BRAINPOOL_P256R1("brainpoolP256r1", 32, HashAlgorithm.SHA256,
            true), BRAINPOOL_P384R1("brainpoolP384r1", 48, HashAlgorithm.SHA384, false);

    private final String curveName;
    private final int fieldBytes;
    private final HashAlgorithm hash;
    private final boolean encryptionCapable;
    private final ECNamedDomainParameters domain;

    EtsiCurve(String curveName, int fieldBytes, HashAlgorithm hash, boolean encryptionCapable) {
        this.curveName = curveName;
        this.fieldBytes = fieldBytes;
        this.hash = hash;
        this.encryptionCapable = encryptionCapable;
        // BouncyCastle's special-form implementation where it has one (secp256r1: fixed-size
        // field arithmetic, several times faster than the generic one ECNamedCurveTable returns);
        // the brainpool curves have none. Same curve, same encodings: only the arithmetic differs.
        X9ECParameters x9 = CustomNamedCurves.getByName(curveName);
        if (x9 == null) {
            x9 = ECNamedCurveTable.getByName(curveName);
        }
        ASN1ObjectIdentifier oid = ECNamedCurveTable.getOID(curveName);
        this.domain = new ECNamedDomainParameters(oid, x9);
    }

    /** Standard curve name (as BouncyCastle and the JCA know it). */
    public String curveName() {
        return curveName;
    }

    /** Length in bytes of a field element (and of r, s and an x-only point). */
    public int fieldBytes() {
        return fieldBytes;
    }

    /** The hash IEEE 1609.2 pairs with this curve for signing and for HashedId8 of its certificates. */
    public HashAlgorithm hash() {
        return hash;
    }

    /** Whether IEEE 1609.2 defines ECIES encryption keys on this curve (P-256 curves only). */
    public boolean encryptionCapable() {
        return encryptionCapable;
    }

    /** BouncyCastle domain parameters; for the crypto core only. */
    ECNamedDomainParameters domain() {
        return domain;
    }

    /**
     * A uniformly random private scalar in [1, n - 1], big-endian, {@link #fieldBytes()} long, drawn
     * from {@code random} alone (rejection sampling: a draw outside the range is thrown away and
     * drawn again), so the caller's randomness decides every key whichever backend multiplies.
     */
    byte[] randomScalar(SecureRandom random) {
        BigInteger order = domain.getN();
        byte[] n = BigIntegers.asUnsignedByteArray(fieldBytes, order);
        byte[] k = new byte[fieldBytes];
        int excess = 8 * fieldBytes - order.bitLength();
        while (true) {
            random.nextBytes(k);
            k[0] &= (byte) (0xFF >>> excess);
            if (isValidScalar(k, n)) {
                return k;
            }
        }
    }

    /** Whether 0 &lt; k &lt; n, without a branch on k's bytes (the caller's branch on the answer is public). */
    private static boolean isValidScalar(byte[] k, byte[] n) {
        int borrow = 0;
        int or = 0;
        for (int i = k.length - 1; i >= 0; i--) {
            int diff = (k[i] & 0xFF) - (n[i] & 0xFF) + borrow;
            borrow = diff >> 8;
            or |= k[i] & 0xFF;
        }
        int belowN = borrow & 1;
        int nonZero = ((or | -or) >>> 31);
        return (belowN & nonZero) == 1;
    }

    /** Accepts {@code nistP256}, {@code secp256r1}, {@code P-256}, {@code brainpoolP256r1}, ... (case-insensitive). */
    public static EtsiCurve parse(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(java.util.Locale.ROOT).replace("_", "").replace("-", "");
        return switch (n) {
            case "nistp256", "secp256r1", "p256", "prime256v1" -> NIST_P256;
            case "brainpoolp256r1" -> BRAINPOOL_P256R1;
            case "brainpoolp384r1" -> BRAINPOOL_P384R1;
            default -> throw new eu.vpki.common.error.PkiException(eu.vpki.common.error.ErrorCode.UNSUPPORTED_ALGORITHM,
                    "unknown curve '" + name + "' (expected nistP256, brainpoolP256r1 or brainpoolP384r1)");
        };
    }
}
