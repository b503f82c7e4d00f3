package eu.vpki.common.etsi.crypto;

import org.bouncycastle.math.raw.Mod;

import java.math.BigInteger;

/**
 * Arithmetic modulo an odd m in Montgomery form, on fixed-size limb arrays: the base of the generated
 * classes ({@code BrainpoolP256r1Field}, ...) that supply {@link #multiply}, {@link #square},
 * {@link #add} and {@link #subtract} as straight-line code. An element is a {@code long[limbs]}
 * holding x&middot;R mod m in {@code radix}-bit limbs (least significant first; the top limb holds the
 * rest), R = 2^(limbs &middot; radix) &gt; 16m. Every operation takes and returns values below 2m: equal
 * residues may differ in representation, so compare only with {@link #isZero} or {@link #equal}.
 * Results may alias operands.
 *
 * <p>Constant time: every method runs the same instructions and touches the same memory whatever
 * the values, except those documented as for public values ({@link #power}, {@link #squareRoot},
 * {@link #invertPublic}). Inversion uses BouncyCastle's {@link Mod#modOddInverse}, Bernstein and
 * Yang's constant-time safegcd.
 */
abstract class MontgomeryField {
    final BigInteger modulus;
    final int limbs;
    final int radix;
    /** Bytes of a canonical big-endian encoding of an element (of the modulus). */
    final int byteLength;
    private final long mask;
    private final long[] modulusLimbs;
    private final long[] rModM;
    private final long[] rSquared;
    private final int[] modulusWords;

    MontgomeryField(BigInteger modulus, int limbs, int radix) {
        this.modulus = modulus;
        this.limbs = limbs;
        this.radix = radix;
        this.byteLength = (modulus.bitLength() + 7) / 8;
        this.mask = (1L << radix) - 1;
        BigInteger r = BigInteger.ONE.shiftLeft(limbs * radix);
        this.modulusLimbs = plainLimbs(modulus);
        this.rModM = plainLimbs(r.mod(modulus));
        this.rSquared = plainLimbs(r.multiply(r).mod(modulus));
        this.modulusWords = words(modulus, wordCount());
    }

    /** r = a&middot;b&middot;R^-1 mod m (a, b below 2m; r below 2m). */
    abstract void multiply(long[] a, long[] b, long[] r);

    /** r = a&middot;a&middot;R^-1 mod m. */
    abstract void square(long[] a, long[] r);

    /** r = a + b mod m. */
    abstract void add(long[] a, long[] b, long[] r);

    /** r = a - b mod m. */
    abstract void subtract(long[] a, long[] b, long[] r);

    /**
     * r = a + b, not reduced and not normalised (below 4m, limbs below 2^(radix + 1)): only as an
     * operand of {@link #multiply} (the other operand a reduced value or another such sum) or of
     * {@link #square}, never of an addition or subtraction.
     */
    abstract void addUnreduced(long[] a, long[] b, long[] r);

    /**
     * r = a - b + 4m, not reduced and not normalised (below 6m, limbs below 2^(radix + 2)): only as
     * an operand of {@link #multiply} whose other operand is a reduced value; not of {@link #square}.
     */
    abstract void subtractUnreduced(long[] a, long[] b, long[] r);

    /** w = the column sums of a&middot;b (2&middot;limbs of them, not reduced); operands as for {@link #multiply}. */
    abstract void multiplyColumns(long[] a, long[] b, long[] w);

    /** w = the column sums of a&middot;a; operand as for {@link #square}. */
    abstract void squareColumns(long[] a, long[] w);

    /**
     * r = w1 - 2&middot;w2 + 8m^2, column by column: for w1 the columns of a product of a reduced value
     * and at most a {@link #subtractUnreduced} difference (below 12m^2), w2 those of a product of two
     * reduced values (below 4m^2); the result, below 20m^2, goes to {@link #reduceColumns}.
     */
    abstract void subtractTwiceColumns(long[] w1, long[] w2, long[] r);

    /** r = w&middot;R^-1 mod m, below 2m, for column sums w of a nonnegative value below 20m^2. */
    abstract void reduceColumns(long[] w, long[] r);

    long[] newColumns() {
        return new long[2 * limbs];
    }

    long[] newElement() {
        return new long[limbs];
    }

    /** The Montgomery form of {@code v} (any value below m; for constants). */
    long[] element(BigInteger v) {
        long[] r = plainLimbs(v.mod(modulus));
        multiply(r, rSquared, r);
        return r;
    }

    /** The Montgomery form of 1. */
    long[] one() {
        return rModM.clone();
    }

    /**
     * r = the Montgomery form of the unsigned big-endian {@code bytes[offset, offset + length)}, whose
     * value must be below 2m (callers check public values against m; a digest is below 2^bits &lt; 2m
     * for both brainpool orders). Constant time.
     */
    void fromBytes(byte[] bytes, int offset, int length, long[] r) {
        setPlain(bytes, offset, length, r);
        multiply(r, rSquared, r);
    }

    /** r = the plain (not Montgomery) limbs of a big-endian value below 2m. Constant time. */
    private void setPlain(byte[] bytes, int offset, int length, long[] r) {
        java.util.Arrays.fill(r, 0);
        for (int j = 0; j < length; j++) {
            long v = bytes[offset + length - 1 - j] & 0xFF;
            int bit = 8 * j;
            int limb = bit / radix;
            if (limb >= limbs - 1) {
                r[limbs - 1] |= v << (bit - radix * (limbs - 1));
                continue;
            }
            int shift = bit % radix;
            r[limb] |= (v << shift) & mask;
            if (shift + 8 > radix) {
                r[limb + 1] |= v >>> (radix - shift);
            }
        }
    }

    /** The canonical unsigned big-endian encoding of a, {@link #byteLength} bytes. Constant time. */
    byte[] toBytes(long[] a) {
        long[] c = newElement();
        long[] one = newElement();
        one[0] = 1;
        multiply(a, one, c); // out of Montgomery form: at most m
        reduceOnce(c, c);
        byte[] out = new byte[byteLength];
        for (int j = 0; j < byteLength; j++) {
            int bit = 8 * j;
            int limb = Math.min(bit / radix, limbs - 1);
            int shift = bit - radix * limb;
            long v = c[limb] >>> shift;
            if (shift + 8 > radix && limb + 1 < limbs) {
                v |= c[limb + 1] << (radix - shift);
            }
            out[byteLength - 1 - j] = (byte) v;
        }
        return out;
    }

    /** Whether the unsigned big-endian value is below m (public values only: decoding checks). */
    boolean isBelowModulus(byte[] bytes) {
        return new BigInteger(1, bytes).compareTo(modulus) < 0;
    }

    /** r = a with a value in [0, m), for a below 2m: m subtracted through a mask. */
    private void reduceOnce(long[] a, long[] r) {
        long[] t = newElement();
        long borrow = 0;
        for (int i = 0; i < limbs; i++) {
            long d = a[i] - modulusLimbs[i] + borrow;
            if (i < limbs - 1) {
                borrow = d >> radix;
                d &= mask;
            }
            t[i] = d;
        }
        long keep = t[limbs - 1] >> 63;
        for (int i = 0; i < limbs; i++) {
            r[i] = (a[i] & keep) | (t[i] & ~keep);
        }
    }

    /**
     * All ones when a &equiv; 0 (mod m), else 0. Constant time. A value below 2m with normalised limbs
     * is 0 or m exactly when it is a multiple of m, so the limbs are compared with both.
     */
    long isZero(long[] a) {
        long orZero = 0;
        long orModulus = 0;
        for (int i = 0; i < limbs; i++) {
            orZero |= a[i];
            orModulus |= a[i] ^ modulusLimbs[i];
        }
        return ~((orZero | -orZero) >> 63) | ~((orModulus | -orModulus) >> 63);
    }

    /** All ones when a &equiv; b (mod m), else 0. Constant time. */
    long equal(long[] a, long[] b) {
        long[] d = newElement();
        subtract(a, b, d);
        return isZero(d);
    }

    /** r = a where mask is all ones, b where it is 0. Constant time. */
    void select(long mask, long[] a, long[] b, long[] r) {
        for (int i = 0; i < limbs; i++) {
            r[i] = (a[i] & mask) | (b[i] & ~mask);
        }
    }

    void negate(long[] a, long[] r) {
        subtract(new long[limbs], a, r);
    }

    /**
     * r = a to the {@code exponent}, for a public exponent (its bits decide the work): left to
     * right with a sliding window of up to 5 bits over the odd powers a, a^3, .., a^31.
     */
    void power(long[] a, BigInteger exponent, long[] r) {
        if (exponent.signum() == 0) {
            System.arraycopy(one(), 0, r, 0, limbs);
            return;
        }
        long[][] odd = new long[16][];
        odd[0] = a.clone();
        long[] a2 = newElement();
        square(a, a2);
        for (int i = 1; i < 16; i++) {
            odd[i] = newElement();
            multiply(odd[i - 1], a2, odd[i]);
        }
        long[] acc = null;
        int i = exponent.bitLength() - 1;
        while (i >= 0) {
            if (!exponent.testBit(i)) {
                square(acc, acc); // the top bit is set, so acc exists here
                i--;
                continue;
            }
            int j = Math.max(i - 4, 0);
            while (!exponent.testBit(j)) {
                j++;
            }
            int window = 0;
            for (int b = i; b >= j; b--) {
                window = (window << 1) | (exponent.testBit(b) ? 1 : 0);
            }
            if (acc == null) {
                acc = odd[window >> 1].clone();
            } else {
                for (int b = i; b >= j; b--) {
                    square(acc, acc);
                }
                multiply(acc, odd[window >> 1], acc);
            }
            i = j - 1;
        }
        System.arraycopy(acc, 0, r, 0, limbs);
    }

    /**
     * A square root of a public value for m &equiv; 3 (mod 4): r = a^((m+1)/4).
     *
     * @return whether a is a square (r is then a root)
     */
    boolean squareRoot(long[] a, long[] r) {
        long[] root = newElement();
        power(a, modulus.add(BigInteger.ONE).shiftRight(2), root);
        long[] check = newElement();
        square(root, check);
        System.arraycopy(root, 0, r, 0, limbs);
        return equal(check, a) != 0;
    }

    /** r = a^-1 (0 for a &equiv; 0), in constant time: BouncyCastle's safegcd on the canonical value. */
    void invert(long[] a, long[] r) {
        int[] x = words(toBytes(a), wordCount());
        int[] z = new int[x.length];
        Mod.modOddInverse(modulusWords, x, z);
        fromWords(z, r);
    }

    /** r = a^-1 for a public, nonzero a: BouncyCastle's variable-time safegcd (faster). */
    void invertPublic(long[] a, long[] r) {
        int[] x = words(toBytes(a), wordCount());
        int[] z = new int[x.length];
        Mod.modOddInverseVar(modulusWords, x, z);
        fromWords(z, r);
    }

    /** r = the Montgomery form of the value of little-endian words z (below m). */
    private void fromWords(int[] z, long[] r) {
        byte[] bytes = new byte[z.length * 4];
        for (int i = 0; i < z.length; i++) {
            int w = z[i];
            int at = bytes.length - 4 * i;
            bytes[at - 1] = (byte) w;
            bytes[at - 2] = (byte) (w >>> 8);
            bytes[at - 3] = (byte) (w >>> 16);
            bytes[at - 4] = (byte) (w >>> 24);
        }
        setPlain(bytes, 0, bytes.length, r);
        multiply(r, rSquared, r);
    }

    private int wordCount() {
        return (modulus.bitLength() + 31) / 32;
    }

    private static int[] words(BigInteger v, int count) {
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = v.shiftRight(32 * i).intValue();
        }
        return out;
    }

    /** Little-endian 32-bit words of a big-endian byte string (constant time). */
    private static int[] words(byte[] bigEndian, int count) {
        int[] out = new int[count];
        for (int j = 0; j < bigEndian.length; j++) {
            int v = bigEndian[bigEndian.length - 1 - j] & 0xFF;
            out[j / 4] |= v << (8 * (j % 4));
        }
        return out;
    }

    private long[] plainLimbs(BigInteger v) {
        long[] out = new long[limbs];
        for (int i = 0; i < limbs; i++) {
            BigInteger shifted = v.shiftRight(radix * i);
            out[i] = i == limbs - 1 ? shifted.longValueExact() : shifted.longValue() & mask;
        }
        return out;
    }
}
