package eu.vpki.common.etsi.crypto;

import org.bouncycastle.asn1.x9.ECNamedCurveTable;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generated Montgomery arithmetic against {@link BigInteger}: every operation on random values
 * and on the edges of the representation (0, 1, m - 1, and the non-canonical m .. 2m - 1 that
 * operations may return), for the four moduli.
 */
class MontgomeryFieldTest {
    private static final Random RANDOM = new Random(20);

    static Stream<MontgomeryField> fields() {
        return Stream.of(new BrainpoolP256r1Field(), new BrainpoolP256r1Order(), new BrainpoolP384r1Field(), new BrainpoolP384r1Order());
    }

    @Test
    void moduli_areTheBrainpoolCurvesPrimesAndOrders() {
        X9ECParameters p256 = ECNamedCurveTable.getByName("brainpoolP256r1");
        X9ECParameters p384 = ECNamedCurveTable.getByName("brainpoolP384r1");
        assertThat(new BrainpoolP256r1Field().modulus).isEqualTo(p256.getCurve().getField().getCharacteristic());
        assertThat(new BrainpoolP256r1Order().modulus).isEqualTo(p256.getN());
        assertThat(new BrainpoolP384r1Field().modulus).isEqualTo(p384.getCurve().getField().getCharacteristic());
        assertThat(new BrainpoolP384r1Order().modulus).isEqualTo(p384.getN());
    }

    @Test
    void generatedSources_matchTheirGenerator() throws IOException {
        for (MontgomeryFieldSource.Spec spec : MontgomeryFieldSource.SPECS) {
            Path file = Path.of("src/main/java/eu/vpki/common/etsi/crypto", spec.className() + ".java");
            assertThat(Files.readString(file, StandardCharsets.UTF_8))
                    .as("%s was edited by hand or not regenerated (see MontgomeryFieldSource)", file)
                    .isEqualTo(MontgomeryFieldSource.source(spec));
        }
    }

    /**
     * The mechanical half of the constant-time review (docs/design-brainpool-arithmetic.md): the
     * generated field code has no branch of any kind and indexes arrays with literals only, so
     * neither control flow nor memory addresses can depend on the values it computes.
     */
    @Test
    void generatedSources_haveNoBranchAndOnlyLiteralArrayIndices() {
        for (MontgomeryFieldSource.Spec spec : MontgomeryFieldSource.SPECS) {
            assertThat(branchesAndVariableIndices(MontgomeryFieldSource.source(spec))).as(spec.className()).isEmpty();
        }
        // the check finds what it looks for: a branch, a conditional, a loop, a short circuit, a variable index
        assertThat(branchesAndVariableIndices("""
                if (c == 0) {
                long t = c > 0 ? 1 : 0;
                for (int i = 0; i < 5; i++) {
                boolean b = x != 0 && y != 0;
                long u = a[i] + a[0] + new long[2][3].length;
                long v = a[0] + b[12];
                """)).hasSize(5);
    }

    /** Code lines (comments left out) with a branch, a loop, a conditional, a short circuit, or an array index that is not a literal. */
    static List<String> branchesAndVariableIndices(String source) {
        Pattern branch = Pattern.compile("\\b(if|else|for|while|do|switch|case|try|catch)\\b|\\?|&&|\\|\\|");
        Pattern variableIndex = Pattern.compile("\\[(?!\\d+\\])[^\\]]+\\]");
        List<String> found = new ArrayList<>();
        for (String line : source.lines().toList()) {
            String code = line.strip();
            if (code.startsWith("//") || code.startsWith("/*") || code.startsWith("*")) {
                continue;
            }
            code = code.replaceAll("//.*$", "").replaceAll("\"([^\"\\\\]|\\\\.)*\"", "\"\"");
            if (branch.matcher(code).find() || variableIndex.matcher(code).find()) {
                found.add(code);
            }
        }
        return found;
    }

    @ParameterizedTest
    @MethodSource("fields")
    void everyOperation_agreesWithBigInteger(MontgomeryField f) {
        BigInteger m = f.modulus;
        BigInteger rInverse = BigInteger.ONE.shiftLeft(f.limbs * f.radix).modInverse(m);
        for (BigInteger[] pair : pairs(m, 3000)) {
            BigInteger x = pair[0];
            BigInteger y = pair[1];
            long[] a = representation(f, x);
            long[] b = representation(f, y);
            long[] r = f.newElement();

            f.multiply(a, b, r);
            assertBelowTwoM(f, r);
            assertThat(value(f, r)).as("%s * %s", x, y).isEqualTo(x.multiply(y).mod(m));
            f.square(a, r);
            assertBelowTwoM(f, r);
            assertThat(value(f, r)).isEqualTo(x.multiply(x).mod(m));
            f.add(a, b, r);
            assertBelowTwoM(f, r);
            assertThat(value(f, r)).isEqualTo(x.add(y).mod(m));
            f.subtract(a, b, r);
            assertBelowTwoM(f, r);
            assertThat(value(f, r)).isEqualTo(x.subtract(y).mod(m));
            f.negate(a, r);
            assertThat(value(f, r)).isEqualTo(x.negate().mod(m));
            assertThat(f.isZero(a)).isEqualTo(x.signum() == 0 ? -1L : 0L);
            assertThat(f.equal(a, b)).isEqualTo(x.equals(y) ? -1L : 0L);
            if (x.signum() != 0) {
                f.invert(a, r);
                assertThat(value(f, r)).isEqualTo(x.modInverse(m));
                f.invertPublic(a, r);
                assertThat(value(f, r)).isEqualTo(x.modInverse(m));
            }
            f.select(-1L, a, b, r);
            assertThat(value(f, r)).isEqualTo(x);
            f.select(0L, a, b, r);
            assertThat(value(f, r)).isEqualTo(y);
        }
        assertThat(rInverse.signum()).isPositive();
    }

    @ParameterizedTest
    @MethodSource("fields")
    void unreducedSumsAndDifferences_multiplyAndSquareToTheRightResidue(MontgomeryField f) {
        BigInteger m = f.modulus;
        List<BigInteger[]> cases = pairs(m, 2000);
        for (int i = 0; i < cases.size(); i++) {
            BigInteger x = cases.get(i)[0];
            BigInteger y = cases.get(i)[1];
            BigInteger z = cases.get((i * 7 + 3) % cases.size())[0];
            long[] a = representation(f, x);
            long[] b = representation(f, y);
            long[] c = representation(f, z);
            long[] sum = f.newElement();
            long[] difference = f.newElement();
            long[] r = f.newElement();
            f.addUnreduced(a, b, sum);
            f.subtractUnreduced(a, b, difference);
            f.multiply(sum, c, r);
            assertBelowTwoM(f, r);
            assertThat(value(f, r)).isEqualTo(x.add(y).multiply(z).mod(m));
            f.multiply(sum, sum, r);
            assertBelowTwoM(f, r);
            assertThat(value(f, r)).isEqualTo(x.add(y).pow(2).mod(m));
            f.square(sum, r);
            assertBelowTwoM(f, r);
            assertThat(value(f, r)).isEqualTo(x.add(y).pow(2).mod(m));
            f.multiply(c, difference, r);
            assertBelowTwoM(f, r);
            assertThat(value(f, r)).isEqualTo(x.subtract(y).multiply(z).mod(m));
        }
    }

    @ParameterizedTest
    @MethodSource("fields")
    void differenceOfProducts_reducesOnceToTheRightResidue(MontgomeryField f) {
        BigInteger m = f.modulus;
        List<BigInteger[]> cases = pairs(m, 2000);
        long[] w1 = f.newColumns();
        long[] w2 = f.newColumns();
        long[] t = f.newColumns();
        long[] difference = f.newElement();
        long[] r = f.newElement();
        for (int i = 0; i < cases.size(); i++) {
            BigInteger x = cases.get(i)[0];
            BigInteger y = cases.get(i)[1];
            BigInteger u = cases.get((i * 7 + 3) % cases.size())[0];
            BigInteger v = cases.get((i * 5 + 1) % cases.size())[1];
            long[] a = representation(f, x);
            f.subtractUnreduced(representation(f, y), representation(f, u), difference);
            f.multiplyColumns(a, difference, w1);
            if (i % 2 == 0) {
                f.squareColumns(representation(f, v), w2);
            } else {
                f.multiplyColumns(representation(f, v), representation(f, u), w2);
            }
            f.subtractTwiceColumns(w1, w2, t);
            f.reduceColumns(t, r);
            assertBelowTwoM(f, r);
            BigInteger second = i % 2 == 0 ? v.multiply(v) : v.multiply(u);
            assertThat(value(f, r)).as("x (y - u) - 2 w").isEqualTo(x.multiply(y.subtract(u)).subtract(second.shiftLeft(1)).mod(m));
        }
    }

    /** The largest operands: a b at 2m - 1 times the largest unreduced difference, minus nothing, and 0 minus the largest 2 c d. */
    @ParameterizedTest
    @MethodSource("fields")
    void differenceOfProducts_atItsBounds(MontgomeryField f) {
        BigInteger twoMMinusOne = f.modulus.shiftLeft(1).subtract(BigInteger.ONE);
        long[] top = raw(f, twoMMinusOne);
        long[] zero = f.newElement();
        long[] difference = f.newElement();
        f.subtractUnreduced(top, zero, difference);
        long[] w1 = f.newColumns();
        long[] w2 = f.newColumns();
        long[] t = f.newColumns();
        long[] r = f.newElement();
        f.multiplyColumns(top, difference, w1);
        f.multiplyColumns(zero, zero, w2);
        f.subtractTwiceColumns(w1, w2, t);
        f.reduceColumns(t, r);
        assertBelowTwoM(f, r);
        assertThat(rawValue(f, r).mod(f.modulus))
                .isEqualTo(twoMMinusOne.multiply(rawValue(f, difference)).multiply(rInverse(f)).mod(f.modulus));
        f.multiplyColumns(zero, zero, w1);
        f.squareColumns(top, w2);
        f.subtractTwiceColumns(w1, w2, t);
        f.reduceColumns(t, r);
        assertBelowTwoM(f, r);
        assertThat(rawValue(f, r).mod(f.modulus)).isEqualTo(twoMMinusOne.pow(2).shiftLeft(1).negate().multiply(rInverse(f)).mod(f.modulus));
    }

    /** The largest operands the unreduced forms allow: every limb of a and c at its maximum (2m - 1), b = 0. */
    @ParameterizedTest
    @MethodSource("fields")
    void unreducedForms_atTheirBounds(MontgomeryField f) {
        BigInteger twoMMinusOne = f.modulus.shiftLeft(1).subtract(BigInteger.ONE);
        long[] top = raw(f, twoMMinusOne);
        long[] zero = f.newElement();
        long[] sum = f.newElement();
        long[] difference = f.newElement();
        long[] r = f.newElement();
        f.addUnreduced(top, top, sum);
        f.square(sum, r);
        assertBelowTwoM(f, r);
        assertThat(rawValue(f, r).mod(f.modulus)).isEqualTo(rawValue(f, sum).pow(2).multiply(rInverse(f)).mod(f.modulus));
        f.subtractUnreduced(top, zero, difference);
        f.multiply(difference, top, r);
        assertBelowTwoM(f, r);
        assertThat(rawValue(f, r).mod(f.modulus))
                .isEqualTo(rawValue(f, difference).multiply(twoMMinusOne).multiply(rInverse(f)).mod(f.modulus));
        f.subtractUnreduced(zero, top, difference);
        for (long limb : difference) {
            assertThat(limb).isNotNegative();
        }
        f.multiply(difference, top, r);
        assertBelowTwoM(f, r);
    }

    private static BigInteger rInverse(MontgomeryField f) {
        return BigInteger.ONE.shiftLeft(f.limbs * f.radix).modInverse(f.modulus);
    }

    private static long[] raw(MontgomeryField f, BigInteger v) {
        long[] out = new long[f.limbs];
        long mask = (1L << f.radix) - 1;
        for (int i = 0; i < f.limbs; i++) {
            BigInteger shifted = v.shiftRight(f.radix * i);
            out[i] = i == f.limbs - 1 ? shifted.longValueExact() : shifted.longValue() & mask;
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("fields")
    void aliasedOperands_giveTheSameResults(MontgomeryField f) {
        BigInteger x = new BigInteger(f.modulus.bitLength() - 1, RANDOM);
        BigInteger y = new BigInteger(f.modulus.bitLength() - 1, RANDOM);
        long[] a = f.element(x);
        long[] b = f.element(y);
        f.multiply(a, b, a);
        assertThat(value(f, a)).isEqualTo(x.multiply(y).mod(f.modulus));
        f.square(b, b);
        assertThat(value(f, b)).isEqualTo(y.multiply(y).mod(f.modulus));
        f.subtract(a, a, a);
        assertThat(f.isZero(a)).isEqualTo(-1L);
    }

    @ParameterizedTest
    @MethodSource("fields")
    void bytes_roundTrip_andSquareRootsAndPowersAgree(MontgomeryField f) {
        BigInteger m = f.modulus;
        for (int i = 0; i < 200; i++) {
            BigInteger x = new BigInteger(m.bitLength() + 8, RANDOM).mod(m);
            byte[] bytes = org.bouncycastle.util.BigIntegers.asUnsignedByteArray(f.byteLength, x);
            long[] a = f.newElement();
            f.fromBytes(bytes, 0, bytes.length, a);
            assertThat(f.toBytes(a)).isEqualTo(bytes);
            assertThat(f.isBelowModulus(bytes)).isTrue();
            BigInteger e = new BigInteger(64, RANDOM);
            long[] r = f.newElement();
            f.power(a, e, r);
            assertThat(value(f, r)).isEqualTo(x.modPow(e, m));
            if (m.testBit(1)) { // m ≡ 3 (mod 4)
                boolean square = f.squareRoot(a, r);
                assertThat(square)
                        .isEqualTo(x.signum() == 0 || x.modPow(m.subtract(BigInteger.ONE).shiftRight(1), m).equals(BigInteger.ONE));
                if (square) {
                    assertThat(value(f, r).multiply(value(f, r)).mod(m)).isEqualTo(x);
                }
            }
        }
        assertThat(f.isBelowModulus(org.bouncycastle.util.BigIntegers.asUnsignedByteArray(f.byteLength, m))).isFalse();
    }

    /** Random pairs plus the edges: 0, 1, 2, m - 1, m - 2, 2^k - 1 below m. */
    private static List<BigInteger[]> pairs(BigInteger m, int count) {
        List<BigInteger> edges = List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO, m.subtract(BigInteger.ONE),
                m.subtract(BigInteger.TWO), BigInteger.ONE.shiftLeft(m.bitLength() - 1).subtract(BigInteger.ONE));
        List<BigInteger[]> out = new ArrayList<>();
        for (BigInteger x : edges) {
            for (BigInteger y : edges) {
                out.add(new BigInteger[]{x, y});
            }
        }
        for (int i = 0; i < count; i++) {
            out.add(new BigInteger[]{new BigInteger(m.bitLength() + 8, RANDOM).mod(m), new BigInteger(m.bitLength() + 8, RANDOM).mod(m)});
        }
        return out;
    }

    /**
     * x in Montgomery form, half of the time as its non-canonical twin x&middot;R + m (below 2m), which
     * operations may hand each other.
     */
    private static long[] representation(MontgomeryField f, BigInteger x) {
        BigInteger mont = x.shiftLeft(f.limbs * f.radix).mod(f.modulus);
        if (RANDOM.nextBoolean()) {
            mont = mont.add(f.modulus);
        }
        long[] out = new long[f.limbs];
        long mask = (1L << f.radix) - 1;
        for (int i = 0; i < f.limbs; i++) {
            BigInteger shifted = mont.shiftRight(f.radix * i);
            out[i] = i == f.limbs - 1 ? shifted.longValueExact() : shifted.longValue() & mask;
        }
        return out;
    }

    private static BigInteger rawValue(MontgomeryField f, long[] a) {
        BigInteger v = BigInteger.ZERO;
        for (int i = f.limbs - 1; i >= 0; i--) {
            v = v.shiftLeft(f.radix).add(BigInteger.valueOf(a[i]));
        }
        return v;
    }

    private static void assertBelowTwoM(MontgomeryField f, long[] a) {
        long mask = (1L << f.radix) - 1;
        for (int i = 0; i < f.limbs - 1; i++) {
            assertThat(a[i]).as("limb %d normalised", i).isBetween(0L, mask);
        }
        assertThat(rawValue(f, a)).isLessThan(f.modulus.shiftLeft(1));
    }

    /** The residue the limbs stand for: their value times R^-1 mod m. */
    private static BigInteger value(MontgomeryField f, long[] a) {
        BigInteger rInverse = BigInteger.ONE.shiftLeft(f.limbs * f.radix).modInverse(f.modulus);
        return rawValue(f, a).multiply(rInverse).mod(f.modulus);
    }
}
