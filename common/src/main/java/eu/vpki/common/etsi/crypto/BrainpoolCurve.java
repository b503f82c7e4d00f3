package eu.vpki.common.etsi.crypto;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Point arithmetic, ECDSA and ECDH on brainpoolP256r1 and brainpoolP384r1 over the generated
 * Montgomery fields (docs/design-brainpool-arithmetic.md). Stateless apart from tables it builds
 * once; thread-safe.
 *
 * <p><b>The twist.</b> Each brainpool "r1" curve y^2 = x^3 + Ax + B is isomorphic to its "t1" twin
 * y^2 = x^3 - 3x + B' (RFC 5639, section 3) through (x, y) &rarr; (x&middot;Z^2, y&middot;Z^3) with
 * A&middot;Z^4 = -3. All arithmetic runs on the twin, where a = -3 makes a doubling cost 3M + 5S
 * instead of 2M + 8S; points are mapped in on decoding and out when a coordinate leaves.
 *
 * <p><b>Secret scalars</b> (private keys, ECDSA nonces, ECIES ephemeral keys) go only through
 * {@link #multiplyBase}, {@link #sharedX} and the scalar arithmetic of {@link #sign}, which are
 * constant time: the scalar is recoded into signed 5-bit digits without a branch, every table
 * lookup reads all 16 entries and keeps one through a mask, negation and the special cases
 * (digit 0, the accumulator at infinity, a doubling hidden in an addition) are handled by computing
 * both outcomes and selecting with a mask, and field inversion is BouncyCastle's constant-time
 * safegcd. {@link #verify} and {@link #decode} handle only public values and may branch on them.
 *
 * <ul>
 *   <li>{@link #multiplyBase}: one precomputed table per 5-bit window (16 affine multiples of
 *       2^(5i)&middot;G), so no doublings at all; additions use the complete formulas of Renes, Costello
 *       and Batina (2016, Algorithm 5: mixed, a = -3) in projective coordinates, which have no
 *       exceptional case to hide.</li>
 *   <li>{@link #sharedX} (ECDH): a fixed-window ladder over 16 affine multiples of the peer point,
 *       5 Jacobian doublings and one mixed addition per window. The partial scalars before the last
 *       addition lie strictly between 16 and n - 16, so only the last addition can meet the peer's
 *       multiple itself (k within 16 of 0 or n): it also computes the doubling and selects it.
 *       A peer point used again and again (a CA's encryption key) gets its own comb table, as G has.</li>
 *   <li>{@link #verify}: u1&middot;G + u2&middot;Q interleaved with width-10 (G, precomputed) and width-5 (Q,
 *       built per key and kept) NAFs, compared without an inversion.</li>
 * </ul>
 */
final class BrainpoolCurve {
    private static final int WINDOW = 5;
    /** Non-zero digit magnitudes per window: 1..16. */
    private static final int ENTRIES = 1 << (WINDOW - 1);
    private static final int G_NAF_WIDTH = 10;
    private static final int Q_NAF_WIDTH = 5;
    /** A peer point gets its own comb table on this use (the first ones use the ladder). */
    private static final int COMB_AFTER_USES = 2;

    static final BrainpoolCurve P256R1 = new BrainpoolCurve(EtsiCurve.BRAINPOOL_P256R1, new BrainpoolP256r1Field(),
            new BrainpoolP256r1Order(),
            "7D5A0975FC2C3057EEF67530417AFFE7FB8055C126DC5C6CE94A4B44F330B5D9",
            "26DC5C6CE94A4B44F330B5D9BBD77CBF958416295CF7E1CE6BCCDC18FF8C07B6",
            "8BD2AEB9CB7E57CB2C4B482FFC81B7AFB9DE27E1E3BD23C23A4453BD9ACE3262",
            "547EF835C3DAC4FD97F8461A14611DC9C27745132DED8E545C1D54C72F046997",
            "3E2D4BD9597B58639AE7AA669CAB9837CF5CF20A2C852D10F655668DFC150EF0");
    static final BrainpoolCurve P384R1 = new BrainpoolCurve(EtsiCurve.BRAINPOOL_P384R1, new BrainpoolP384r1Field(),
            new BrainpoolP384r1Order(),
            "7BC382C63D8C150C3C72080ACE05AFA0C2BEA28E4FB22787139165EFBA91F90F8AA5814A503AD4EB04A8C7DD22CE2826",
            "04A8C7DD22CE28268B39B55416F0447C2FB77DE107DCD2A62E880EA53EEB62D57CB4390295DBC9943AB78696FA504C11",
            "1D1C64F068CF45FFA2A63A81B7C13F6B8847A3E77EF14FE3DB7FCAFE0CBD10E8E826E03436D646AAEF87B2E247D4AF1E",
            "8ABE1D7520F9C2A45CB1EB8E95CFD55262B70B29FEEC5864E19C054FF99129280E4646217791811142820341263C5315",
            "4AD935A569A53B30F8F30976E9B19942445CB42E704DC86F30BE612560EB628BD9FD696D08604C94BAE95C74AB7EC337");

    final EtsiCurve curve;
    final MontgomeryField field;
    final MontgomeryField order;
    private final int limbs;
    /** Signed 5-bit digits of a scalar below 2^bits: one more bit than the order for the last carry. */
    private final int digits;
    private final long[] a;
    private final long[] b;
    private final long[] twinB;
    private final long[] z2;
    private final long[] z3;
    private final long[] z2Inverse;
    private final long[] z3Inverse;
    private final long[] one;
    private final PublicPoint generator;
    private volatile long[][] generatorComb;
    private volatile long[] generatorNaf;

    private BrainpoolCurve(EtsiCurve curve, MontgomeryField field, MontgomeryField order, String a, String b, String gx, String gy,
                           String z) {
        this.curve = curve;
        this.field = field;
        this.order = order;
        this.limbs = field.limbs;
        this.digits = (order.modulus.bitLength() + WINDOW) / WINDOW;
        BigInteger p = field.modulus;
        BigInteger zz = new BigInteger(z, 16);
        BigInteger bigB = new BigInteger(b, 16);
        this.a = field.element(new BigInteger(a, 16));
        this.b = field.element(bigB);
        this.twinB = field.element(bigB.multiply(zz.modPow(BigInteger.valueOf(6), p)));
        this.z2 = field.element(zz.modPow(BigInteger.TWO, p));
        this.z3 = field.element(zz.modPow(BigInteger.valueOf(3), p));
        this.z2Inverse = field.element(zz.modPow(BigInteger.TWO, p).modInverse(p));
        this.z3Inverse = field.element(zz.modPow(BigInteger.valueOf(3), p).modInverse(p));
        this.one = field.one();
        if (field.equal(field.element(new BigInteger(a, 16).multiply(zz.modPow(BigInteger.valueOf(4), p))),
                field.element(BigInteger.valueOf(3).negate())) == 0) {
            throw new IllegalStateException("Z does not map " + curve + " onto its a = -3 twin");
        }
        this.generator = fromAffine(new BigInteger(gx, 16), new BigInteger(gy, 16));
    }

    /** A validated public point, with its affine coordinates on the curve and on its twin. */
    static final class PublicPoint {
        /** Canonical big-endian affine coordinates on the r1 curve. */
        final byte[] x;
        final byte[] y;
        /** Coordinates on the twin, Montgomery form. */
        final long[] twinX;
        final long[] twinY;
        /** Odd multiples 1, 3, ..., 15 (affine, twin), for verification; built on first use. */
        private volatile long[] naf;
        /** Comb tables of this point (affine, twin), for encryption to it; built on its second use. */
        private volatile long[][] comb;
        private volatile int uses;

        private PublicPoint(byte[] x, byte[] y, long[] twinX, long[] twinY) {
            this.x = x;
            this.y = y;
            this.twinX = twinX;
            this.twinY = twinY;
        }

        boolean yOdd() {
            return (y[y.length - 1] & 1) != 0;
        }
    }

    // ------------------------------------------------------------------ points in and out

    /**
     * Decodes a SEC 1 point (compressed {@code 02|03 || x} or uncompressed {@code 04 || x || y}) and
     * checks that it is on the curve (cofactor 1: then it is in the group).
     *
     * @throws IllegalArgumentException when it is not
     */
    PublicPoint decode(byte[] encoded) {
        int n = field.byteLength;
        if (encoded.length == n + 1 && (encoded[0] == 0x02 || encoded[0] == 0x03)) {
            byte[] xBytes = Arrays.copyOfRange(encoded, 1, n + 1);
            if (!field.isBelowModulus(xBytes)) {
                throw new IllegalArgumentException("x is not below p");
            }
            long[] x = field.newElement();
            field.fromBytes(xBytes, 0, n, x);
            long[] rhs = rightHandSide(x);
            long[] y = field.newElement();
            if (!field.squareRoot(rhs, y)) {
                throw new IllegalArgumentException("no point with this x on " + curve);
            }
            byte[] yBytes = field.toBytes(y);
            boolean odd = (yBytes[n - 1] & 1) != 0;
            if (odd != (encoded[0] == 0x03)) {
                if (field.isZero(y) != 0) {
                    throw new IllegalArgumentException("y = 0 has no odd twin");
                }
                field.negate(y, y);
                yBytes = field.toBytes(y);
            }
            return toPublicPoint(xBytes, yBytes, x, y);
        }
        if (encoded.length == 2 * n + 1 && encoded[0] == 0x04) {
            return fromAffine(new BigInteger(1, Arrays.copyOfRange(encoded, 1, n + 1)),
                    new BigInteger(1, Arrays.copyOfRange(encoded, n + 1, 2 * n + 1)));
        }
        throw new IllegalArgumentException("not a SEC 1 point encoding for " + curve);
    }

    /** The point (x, y) of the r1 curve, checked to be on it. */
    PublicPoint fromAffine(BigInteger xValue, BigInteger yValue) {
        int n = field.byteLength;
        if (xValue.signum() < 0 || yValue.signum() < 0 || xValue.compareTo(field.modulus) >= 0 || yValue.compareTo(field.modulus) >= 0) {
            throw new IllegalArgumentException("coordinate not below p");
        }
        byte[] xBytes = org.bouncycastle.util.BigIntegers.asUnsignedByteArray(n, xValue);
        byte[] yBytes = org.bouncycastle.util.BigIntegers.asUnsignedByteArray(n, yValue);
        long[] x = field.newElement();
        long[] y = field.newElement();
        field.fromBytes(xBytes, 0, n, x);
        field.fromBytes(yBytes, 0, n, y);
        long[] y2 = field.newElement();
        field.square(y, y2);
        if (field.equal(y2, rightHandSide(x)) == 0) {
            throw new IllegalArgumentException("point is not on " + curve);
        }
        return toPublicPoint(xBytes, yBytes, x, y);
    }

    private long[] rightHandSide(long[] x) {
        long[] rhs = field.newElement();
        field.square(x, rhs);
        field.add(rhs, a, rhs);
        field.multiply(rhs, x, rhs);
        field.add(rhs, b, rhs);
        return rhs;
    }

    private PublicPoint toPublicPoint(byte[] xBytes, byte[] yBytes, long[] x, long[] y) {
        long[] tx = field.newElement();
        long[] ty = field.newElement();
        field.multiply(x, z2, tx);
        field.multiply(y, z3, ty);
        return new PublicPoint(xBytes, yBytes, tx, ty);
    }

    /** The public point of the twin's affine (x, y), mapped back to the r1 curve. */
    private PublicPoint fromTwin(long[] tx, long[] ty) {
        long[] x = field.newElement();
        long[] y = field.newElement();
        field.multiply(tx, z2Inverse, x);
        field.multiply(ty, z3Inverse, y);
        return new PublicPoint(field.toBytes(x), field.toBytes(y), tx.clone(), ty.clone());
    }

    // ------------------------------------------------------------------ scalars

    /** A uniformly random scalar in [1, n - 1], big-endian, {@code order.byteLength} bytes ({@link EtsiCurve#randomScalar}). */
    byte[] randomScalar(SecureRandom random) {
        return curve.randomScalar(random);
    }

    /**
     * Signed base-32 digits of a scalar, each in [-16, 16], least significant first, in constant time:
     * digit i is bits 5i..5i+4 plus bit 5i-1, less 32 when bit 5i+4 is set.
     */
    private int[] recode(byte[] scalar) {
        int[] out = new int[digits];
        for (int w = 0; w < digits; w++) {
            int chunk = 0;
            for (int j = 0; j < WINDOW; j++) {
                chunk |= bit(scalar, WINDOW * w + j) << j;
            }
            int below = w == 0 ? 0 : bit(scalar, WINDOW * w - 1);
            out[w] = chunk + below - ((chunk >> (WINDOW - 1)) << WINDOW);
        }
        return out;
    }

    private static int bit(byte[] bigEndian, int i) {
        int index = bigEndian.length - 1 - (i >> 3);
        return index < 0 ? 0 : (bigEndian[index] >> (i & 7)) & 1;
    }

    // ------------------------------------------------------------------ ECDSA and ECDH

    /** d&middot;G for a secret d in [1, n - 1], in constant time. */
    PublicPoint multiplyBase(byte[] scalar) {
        Projective r = combMultiply(generatorComb(), scalar);
        long[] zInverse = field.newElement();
        field.invert(r.z, zInverse);
        field.multiply(r.x, zInverse, r.x);
        field.multiply(r.y, zInverse, r.y);
        return fromTwin(r.x, r.y);
    }

    /**
     * The x coordinate of d&middot;Q (ECSVDP-DH) for our secret d in [1, n - 1] and a validated Q, canonical
     * big-endian. Constant time in d.
     */
    byte[] sharedX(byte[] scalar, PublicPoint q) {
        long[] x = field.newElement();
        long[][] comb = q.comb;
        if (comb == null && ++q.uses >= COMB_AFTER_USES) {
            comb = combTables(q.twinX, q.twinY);
            q.comb = comb;
        }
        long[] z;
        if (comb != null) {
            Projective r = combMultiply(comb, scalar);
            z = r.z;
            field.invert(r.z, r.z);
            field.multiply(r.x, r.z, x);
        } else {
            Jacobian r = ladder(q, scalar);
            z = r.z;
            field.invert(r.z, r.z);
            field.square(r.z, r.z);
            field.multiply(r.x, r.z, x);
        }
        if (field.isZero(z) != 0) { // only for a scalar that is 0 mod n, which callers never pass
            throw new IllegalStateException("ECDH gave the point at infinity");
        }
        field.multiply(x, z2Inverse, x);
        return field.toBytes(x);
    }

    /**
     * ECDSA signature (r, s) over a digest (its bits as the integer e: the digest is as long as the
     * order), the nonce drawn from {@code random}. Constant time in d and in the nonce.
     */
    byte[][] sign(byte[] d, byte[] digest, SecureRandom random) {
        int n = order.byteLength;
        long[] e = order.newElement();
        order.fromBytes(digest, 0, digest.length, e);
        long[] dm = order.newElement();
        order.fromBytes(d, 0, n, dm);
        while (true) {
            byte[] k = randomScalar(random);
            Projective point = combMultiply(generatorComb(), k);
            long[] x = field.newElement();
            field.invert(point.z, point.z);
            field.multiply(point.x, point.z, x);
            field.multiply(x, z2Inverse, x);
            long[] r = order.newElement();
            order.fromBytes(field.toBytes(x), 0, n, r); // x < p < 2n: a value the order field takes
            byte[] rBytes = order.toBytes(r);
            if (isZero(rBytes)) {
                continue;
            }
            long[] km = order.newElement();
            order.fromBytes(k, 0, n, km);
            order.invert(km, km);
            long[] s = order.newElement();
            order.multiply(r, dm, s);
            order.add(s, e, s);
            order.multiply(km, s, s);
            byte[] sBytes = order.toBytes(s);
            if (!isZero(sBytes)) {
                return new byte[][]{rBytes, sBytes};
            }
        }
    }

    /** ECDSA verification; false for r or s outside [1, n - 1] or a digest of the wrong length. */
    boolean verify(PublicPoint q, byte[] digest, byte[] rBytes, byte[] sBytes) {
        int n = order.byteLength;
        if (digest.length != n || rBytes.length != n || sBytes.length != n) {
            return false;
        }
        BigInteger rValue = new BigInteger(1, rBytes);
        BigInteger sValue = new BigInteger(1, sBytes);
        if (rValue.signum() == 0 || sValue.signum() == 0 || rValue.compareTo(order.modulus) >= 0 || sValue.compareTo(order.modulus) >= 0) {
            return false;
        }
        long[] w = order.newElement();
        order.fromBytes(sBytes, 0, n, w);
        order.invertPublic(w, w);
        long[] u1 = order.newElement();
        long[] u2 = order.newElement();
        order.fromBytes(digest, 0, n, u1);
        order.multiply(u1, w, u1);
        order.fromBytes(rBytes, 0, n, u2);
        order.multiply(u2, w, u2);
        byte[] naf1Input = order.toBytes(u1);
        byte[] naf2Input = order.toBytes(u2);
        int[] naf1 = naf(naf1Input, G_NAF_WIDTH);
        int[] naf2 = naf(naf2Input, Q_NAF_WIDTH);
        long[] gTable = generatorNaf();
        long[] qTable = q.naf;
        if (qTable == null) {
            qTable = oddMultiples(q.twinX, q.twinY, 1 << (Q_NAF_WIDTH - 2));
            q.naf = qTable;
        }
        Jacobian acc = new Jacobian();
        Work work = new Work();
        boolean infinity = true;
        long[] tx = field.newElement();
        long[] ty = field.newElement();
        for (int i = Math.max(naf1.length, naf2.length) - 1; i >= 0; i--) {
            if (!infinity) {
                work.doubleInPlace(acc);
            }
            for (int t = 0; t < 2; t++) {
                int[] naf = t == 0 ? naf1 : naf2;
                int digit = i < naf.length ? naf[i] : 0;
                if (digit == 0) {
                    continue;
                }
                long[] table = t == 0 ? gTable : qTable;
                int at = ((Math.abs(digit) - 1) >> 1) * 2 * limbs;
                System.arraycopy(table, at, tx, 0, limbs);
                System.arraycopy(table, at + limbs, ty, 0, limbs);
                if (digit < 0) {
                    field.negate(ty, ty);
                }
                if (infinity) {
                    acc.set(tx, ty, one);
                    infinity = false;
                } else {
                    infinity = work.addPublic(acc, tx, ty);
                }
            }
        }
        if (infinity) {
            return false;
        }
        // x(R) on r1 = X / Z^2 * Z_iso^-2; accept when it is r or r + n (mod p), compared as X = x * Z^2 * Z_iso^2
        long[] zz = field.newElement();
        field.square(acc.z, zz);
        field.multiply(zz, z2, zz);
        long[] candidate = field.newElement();
        field.fromBytes(rBytes, 0, n, candidate);
        long[] rhs = field.newElement();
        field.multiply(candidate, zz, rhs);
        if (field.equal(rhs, acc.x) != 0) {
            return true;
        }
        BigInteger rPlusN = rValue.add(order.modulus);
        if (rPlusN.compareTo(field.modulus) >= 0) {
            return false;
        }
        field.fromBytes(org.bouncycastle.util.BigIntegers.asUnsignedByteArray(n, rPlusN), 0, n, candidate);
        field.multiply(candidate, zz, rhs);
        return field.equal(rhs, acc.x) != 0;
    }

    private static boolean isZero(byte[] v) {
        int or = 0;
        for (byte x : v) {
            or |= x;
        }
        return or == 0;
    }

    // ------------------------------------------------------------------ multiplications

    /** Constant-time comb: sum over the windows of digit_i&middot;2^(5i)&middot;P from the point's tables. */
    private Projective combMultiply(long[][] comb, byte[] scalar) {
        int[] d = recode(scalar);
        Work work = new Work();
        Projective acc = new Projective();
        acc.setInfinity(one);
        Projective saved = new Projective();
        long[] tx = field.newElement();
        long[] ty = field.newElement();
        long[] negY = field.newElement();
        for (int w = 0; w < digits; w++) {
            int sign = d[w] >> 31;
            int magnitude = (d[w] ^ sign) - sign;
            lookup(comb[w], magnitude, tx, ty);
            field.negate(ty, negY);
            field.select(sign, negY, ty, ty);
            saved.copy(acc);
            work.completeMixedAdd(acc, tx, ty);
            long zeroDigit = ((long) (magnitude - 1)) >> 63;
            acc.select(zeroDigit, saved);
        }
        return acc;
    }

    /** Constant-time fixed-window ladder over 16 affine multiples of Q. */
    private Jacobian ladder(PublicPoint q, byte[] scalar) {
        long[] table = multiples(q.twinX, q.twinY);
        int[] d = recode(scalar);
        Work work = new Work();
        long[] tx = field.newElement();
        long[] ty = field.newElement();
        long[] negY = field.newElement();
        Jacobian acc = new Jacobian();
        lookup(table, d[digits - 1], tx, ty); // the top digit is never negative
        acc.set(tx, ty, one);
        long accInfinity = ((long) (d[digits - 1] - 1)) >> 63;
        Jacobian saved = new Jacobian();
        Jacobian doubled = new Jacobian();
        for (int w = digits - 2; w >= 0; w--) {
            for (int i = 0; i < WINDOW; i++) {
                work.doubleInPlace(acc);
            }
            int sign = d[w] >> 31;
            int magnitude = (d[w] ^ sign) - sign;
            lookup(table, magnitude, tx, ty);
            field.negate(ty, negY);
            field.select(sign, negY, ty, ty);
            long zeroDigit = ((long) (magnitude - 1)) >> 63;
            saved.copy(acc);
            long sameX = work.mixedAdd(acc, tx, ty);
            if (w == 0) {
                // the one addition that can meet its own operand (k within 16 of 0 or n): then double instead
                doubled.copy(saved);
                work.doubleInPlace(doubled);
                acc.select(sameX & work.sameY & ~accInfinity & ~zeroDigit, doubled);
            }
            acc.select(zeroDigit, saved);
            long fresh = accInfinity & ~zeroDigit;
            field.select(fresh, tx, acc.x, acc.x);
            field.select(fresh, ty, acc.y, acc.y);
            field.select(fresh, one, acc.z, acc.z);
            accInfinity &= zeroDigit;
        }
        return acc;
    }

    /** Reads entry {@code index} (1..16; 0 gives zeros) of an affine table, touching every entry. */
    private void lookup(long[] table, int index, long[] x, long[] y) {
        Arrays.fill(x, 0);
        Arrays.fill(y, 0);
        for (int j = 1; j <= ENTRIES; j++) {
            long hit = ((long) ((index ^ j) - 1)) >> 63;
            int at = (j - 1) * 2 * limbs;
            for (int l = 0; l < limbs; l++) {
                x[l] |= table[at + l] & hit;
                y[l] |= table[at + limbs + l] & hit;
            }
        }
    }

    // ------------------------------------------------------------------ tables (public points only)

    /** G's comb, built on first use (a few milliseconds) and kept for the JVM's life. */
    private long[][] generatorComb() {
        long[][] c = generatorComb;
        if (c == null) {
            c = combTables(generator.twinX, generator.twinY);
            generatorComb = c;
        }
        return c;
    }

    private long[] generatorNaf() {
        long[] t = generatorNaf;
        if (t == null) {
            t = oddMultiples(generator.twinX, generator.twinY, 1 << (G_NAF_WIDTH - 2));
            generatorNaf = t;
        }
        return t;
    }

    /** 1&middot;P .. 16&middot;P, affine, flattened as x1 y1 x2 y2 ... */
    private long[] multiples(long[] px, long[] py) {
        Jacobian[] points = new Jacobian[ENTRIES];
        Work work = new Work();
        points[0] = new Jacobian();
        points[0].set(px, py, one);
        for (int j = 1; j < ENTRIES; j++) {
            points[j] = new Jacobian();
            points[j].copy(points[j - 1]);
            if (j == 1) {
                work.doubleInPlace(points[j]);
            } else {
                work.mixedAdd(points[j], px, py);
            }
        }
        return normalize(points);
    }

    /**
     * 1&middot;P, 3&middot;P, .., (2count - 1)&middot;P, affine, flattened: 2P made affine (one inversion), then
     * one mixed addition of 2P per entry.
     */
    private long[] oddMultiples(long[] px, long[] py, int count) {
        Work work = new Work();
        Jacobian twice = new Jacobian();
        twice.set(px, py, one);
        work.doubleInPlace(twice);
        long[] flat = normalize(new Jacobian[]{twice});
        long[] twiceX = Arrays.copyOfRange(flat, 0, limbs);
        long[] twiceY = Arrays.copyOfRange(flat, limbs, 2 * limbs);
        Jacobian[] odd = new Jacobian[count];
        odd[0] = new Jacobian();
        odd[0].set(px, py, one);
        for (int j = 1; j < count; j++) {
            odd[j] = new Jacobian();
            odd[j].copy(odd[j - 1]);
            work.mixedAdd(odd[j], twiceX, twiceY); // (2j-1)P + 2P: never a doubling for a point of large prime order
        }
        return normalize(odd);
    }

    /** For each window i: 1..16 times 2^(5i)&middot;P, affine, flattened. */
    private long[][] combTables(long[] px, long[] py) {
        long[][] tables = new long[digits][];
        long[] bx = px.clone();
        long[] by = py.clone();
        Work work = new Work();
        for (int w = 0; w < digits; w++) {
            tables[w] = multiples(bx, by);
            if (w + 1 < digits) {
                Jacobian next = new Jacobian();
                int at = (ENTRIES - 1) * 2 * limbs; // 16·B
                next.set(Arrays.copyOfRange(tables[w], at, at + limbs), Arrays.copyOfRange(tables[w], at + limbs, at + 2 * limbs), one);
                work.doubleInPlace(next); // 32·B = 2^5·B
                long[] flat = normalize(new Jacobian[]{next});
                bx = Arrays.copyOfRange(flat, 0, limbs);
                by = Arrays.copyOfRange(flat, limbs, 2 * limbs);
            }
        }
        return tables;
    }

    /** Affine coordinates of finite Jacobian points with one inversion (Montgomery's trick), flattened. */
    private long[] normalize(Jacobian[] points) {
        int count = points.length;
        long[][] prefix = new long[count][];
        prefix[0] = points[0].z.clone();
        for (int i = 1; i < count; i++) {
            prefix[i] = field.newElement();
            field.multiply(prefix[i - 1], points[i].z, prefix[i]);
        }
        long[] inverse = field.newElement();
        field.invertPublic(prefix[count - 1], inverse);
        long[] out = new long[count * 2 * limbs];
        long[] zInverse = field.newElement();
        long[] t = field.newElement();
        for (int i = count - 1; i >= 0; i--) {
            if (i > 0) {
                field.multiply(inverse, prefix[i - 1], zInverse);
                field.multiply(inverse, points[i].z, inverse);
            } else {
                System.arraycopy(inverse, 0, zInverse, 0, limbs);
            }
            field.square(zInverse, t);
            long[] x = field.newElement();
            long[] y = field.newElement();
            field.multiply(points[i].x, t, x);
            field.multiply(t, zInverse, t);
            field.multiply(points[i].y, t, y);
            System.arraycopy(x, 0, out, i * 2 * limbs, limbs);
            System.arraycopy(y, 0, out, i * 2 * limbs + limbs, limbs);
        }
        return out;
    }

    /**
     * Width-w NAF of a public scalar (big-endian): digits odd in (-2^(w-1), 2^(w-1)) or 0, at least
     * w - 1 zeros between two non-zero ones, least significant first.
     */
    static int[] naf(byte[] scalar, int width) {
        int bits = 8 * scalar.length;
        int[] out = new int[bits + 1];
        int carry = 0;
        int i = 0;
        while (i <= bits) {
            if (bit(scalar, i) == carry) {
                i++;
                continue;
            }
            int word = carry;
            for (int j = 0; j < width; j++) {
                word += bit(scalar, i + j) << j;
            }
            int digit = word & ((1 << width) - 1);
            if (digit >= 1 << (width - 1)) {
                digit -= 1 << width;
            }
            out[i] = digit;
            carry = (word - digit) >> width;
            i += width;
        }
        return out;
    }

    // ------------------------------------------------------------------ coordinates and formulas

    /** Jacobian coordinates (X/Z^2, Y/Z^3) on the twin. */
    private final class Jacobian {
        final long[] x = field.newElement();
        final long[] y = field.newElement();
        final long[] z = field.newElement();

        void set(long[] px, long[] py, long[] pz) {
            System.arraycopy(px, 0, x, 0, limbs);
            System.arraycopy(py, 0, y, 0, limbs);
            System.arraycopy(pz, 0, z, 0, limbs);
        }

        void copy(Jacobian o) {
            set(o.x, o.y, o.z);
        }

        void select(long mask, Jacobian o) {
            field.select(mask, o.x, x, x);
            field.select(mask, o.y, y, y);
            field.select(mask, o.z, z, z);
        }
    }

    /** Homogeneous projective coordinates (X/Z, Y/Z) on the twin; infinity is (0 : 1 : 0). */
    private final class Projective {
        final long[] x = field.newElement();
        final long[] y = field.newElement();
        final long[] z = field.newElement();

        void setInfinity(long[] montgomeryOne) {
            Arrays.fill(x, 0);
            System.arraycopy(montgomeryOne, 0, y, 0, limbs);
            Arrays.fill(z, 0);
        }

        void copy(Projective o) {
            System.arraycopy(o.x, 0, x, 0, limbs);
            System.arraycopy(o.y, 0, y, 0, limbs);
            System.arraycopy(o.z, 0, z, 0, limbs);
        }

        void select(long mask, Projective o) {
            field.select(mask, o.x, x, x);
            field.select(mask, o.y, y, y);
            field.select(mask, o.z, z, z);
        }
    }

    /** Scratch elements for one operation (so that the formulas allocate nothing). */
    private final class Work {
        private final long[] t0 = field.newElement();
        private final long[] t1 = field.newElement();
        private final long[] t2 = field.newElement();
        private final long[] t3 = field.newElement();
        private final long[] t4 = field.newElement();
        private final long[] t5 = field.newElement();
        private final long[] t6 = field.newElement();
        private final long[] t7 = field.newElement();
        private final long[] w0 = field.newColumns();
        private final long[] w1 = field.newColumns();
        /** After {@link #mixedAdd}: all ones when the Y coordinates matched too (the addition was a doubling). */
        long sameY;

        /**
         * P = 2P, a = -3 ("dbl-2001-b": 3M + 5S), with 4&beta; computed as X&middot;4&gamma; and 8&gamma;^2 as
         * 2(2&gamma;)^2 (fewer additions), the sums and differences that only feed a multiplication
         * left unreduced, and Y3 = &alpha;(4&beta; - X3) - 2(2&gamma;)^2 reduced once. Infinity (Z = 0)
         * stays infinity.
         */
        void doubleInPlace(Jacobian p) {
            MontgomeryField f = field;
            long[] delta = t0;
            long[] gamma = t1;
            long[] gamma2 = t2;
            long[] beta4 = t3;
            long[] alpha = t7;
            f.square(p.z, delta);
            f.square(p.y, gamma);
            f.add(gamma, gamma, gamma2);
            f.add(gamma2, gamma2, t6);
            f.multiply(p.x, t6, beta4);
            f.subtract(p.x, delta, t4);
            f.addUnreduced(p.x, delta, t5);
            f.multiply(t4, t5, t4);
            f.add(t4, t4, alpha);
            f.add(alpha, t4, alpha);
            f.addUnreduced(p.y, p.z, t5);
            f.square(t5, t5);
            f.subtract(t5, gamma, t5);
            f.subtract(t5, delta, p.z);
            f.square(alpha, p.x);
            f.subtract(p.x, beta4, p.x);
            f.subtract(p.x, beta4, p.x);
            f.subtractUnreduced(beta4, p.x, t4);
            f.multiplyColumns(alpha, t4, w0);
            f.squareColumns(gamma2, w1);
            f.subtractTwiceColumns(w0, w1, w0);
            f.reduceColumns(w0, p.y);
        }

        /**
         * P = P + (x2, y2) ("madd-2007-bl": 7M + 4S; Y3 = r(V - X3) - 2 Y1 J reduced once), for P
         * not at infinity. When the X coordinates match the result is wrong for P = Q (use a doubling)
         * and infinity (Z = 0) for P = -Q.
         *
         * @return all ones when the X coordinates matched (also sets {@link #sameY})
         */
        long mixedAdd(Jacobian p, long[] x2, long[] y2) {
            MontgomeryField f = field;
            long[] zz = t0;
            long[] h = t1;
            long[] r = t2;
            long[] hh = t3;
            long[] i = t4;
            long[] j = t5;
            long[] v = t6;
            f.square(p.z, zz);
            f.multiply(x2, zz, h);
            f.subtract(h, p.x, h);
            f.multiply(p.z, zz, r);
            f.multiply(y2, r, r);
            f.subtract(r, p.y, r);
            f.add(r, r, r);
            long sameX = f.isZero(h);
            sameY = f.isZero(r);
            f.square(h, hh);
            f.add(hh, hh, i);
            f.add(i, i, i);
            f.multiply(h, i, j);
            f.multiply(p.x, i, v);
            f.addUnreduced(p.z, h, p.z);
            f.square(p.z, p.z);
            f.subtract(p.z, zz, p.z);
            f.subtract(p.z, hh, p.z);
            f.multiplyColumns(p.y, j, w1);
            f.square(r, p.x);
            f.subtract(p.x, j, p.x);
            f.subtract(p.x, v, p.x);
            f.subtract(p.x, v, p.x);
            f.subtractUnreduced(v, p.x, v);
            f.multiplyColumns(r, v, w0);
            f.subtractTwiceColumns(w0, w1, w0);
            f.reduceColumns(w0, p.y);
            return sameX;
        }

        /**
         * P = P + (x2, y2) for public values, with the special cases by branch.
         *
         * @return whether the sum is the point at infinity
         */
        boolean addPublic(Jacobian p, long[] x2, long[] y2) {
            long sameX = mixedAdd(p, x2, y2);
            if (sameX == 0) {
                return false;
            }
            if (sameY == 0) {
                return true; // P = -Q
            }
            p.set(x2, y2, one); // P = Q: the sum is 2Q
            doubleInPlace(p);
            return false;
        }

        /**
         * P = P + (x2, y2) with the complete formulas of Renes, Costello and Batina (Algorithm 5,
         * a = -3, 11M + 2 multiplications by b'): right for every P, including infinity and
         * P = &plusmn;(x2, y2).
         */
        void completeMixedAdd(Projective p, long[] x2, long[] y2) {
            MontgomeryField f = field;
            long[] x3 = t5;
            long[] y3 = t6;
            long[] z3 = t7;
            f.multiply(p.x, x2, t0);
            f.multiply(p.y, y2, t1);
            f.add(x2, y2, t3);
            f.add(p.x, p.y, t4);
            f.multiply(t3, t4, t3);
            f.add(t0, t1, t4);
            f.subtract(t3, t4, t3);
            f.multiply(y2, p.z, t4);
            f.add(t4, p.y, t4);
            f.multiply(x2, p.z, y3);
            f.add(y3, p.x, y3);
            f.multiply(twinB, p.z, z3);
            f.subtract(y3, z3, x3);
            f.add(x3, x3, z3);
            f.add(x3, z3, x3);
            f.subtract(t1, x3, z3);
            f.add(t1, x3, x3);
            f.multiply(twinB, y3, y3);
            f.add(p.z, p.z, t1);
            f.add(t1, p.z, t2);
            f.subtract(y3, t2, y3);
            f.subtract(y3, t0, y3);
            f.add(y3, y3, t1);
            f.add(t1, y3, y3);
            f.add(t0, t0, t1);
            f.add(t1, t0, t0);
            f.subtract(t0, t2, t0);
            f.multiply(t4, y3, t1);
            f.multiply(t0, y3, t2);
            f.multiply(x3, z3, y3);
            f.add(y3, t2, y3);
            f.multiply(t3, x3, x3);
            f.subtract(x3, t1, x3);
            f.multiply(t4, z3, z3);
            f.multiply(t3, t0, t1);
            f.add(z3, t1, z3);
            System.arraycopy(x3, 0, p.x, 0, limbs);
            System.arraycopy(y3, 0, p.y, 0, limbs);
            System.arraycopy(z3, 0, p.z, 0, limbs);
        }
    }
}
