package eu.vpki.common.etsi.crypto;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Writes the Java source of the unrolled Montgomery arithmetic for one modulus (the
 * {@link MontgomeryField} subclasses {@code BrainpoolP256r1Field}, {@code BrainpoolP256r1Order},
 * {@code BrainpoolP384r1Field}, {@code BrainpoolP384r1Order}). The generated files are committed;
 * {@code MontgomeryFieldSourceTest} fails when one differs from what this class writes, so an edit
 * goes here, never into a generated file. Regenerate with
 * {@code java common/src/test/java/eu/vpki/common/etsi/crypto/MontgomeryFieldSource.java common/src/main/java/eu/vpki/common/etsi/crypto}
 * (JDK 17 runs a single source file directly; it then needs {@code MontgomeryField} nowhere).
 *
 * <p>Why generated: C2 keeps the limbs and the column sums in registers only when the loops are
 * written out; the same algorithm as loops over the limb count ran at about half the speed
 * (docs/design-brainpool-arithmetic.md).
 *
 * <p>The representation: {@code n} limbs of {@code radix} bits in {@code long}s, least significant
 * first, each in [0, 2^radix) except the top one, which holds the rest; R = 2^(n * radix) > 16m.
 * Every value an operation takes or returns is below 2m (not necessarily below m):
 * <ul>
 *   <li>multiply and square: product scanning by rows, each partial product split by
 *       {@link Math#multiplyHigh} into its low {@code radix} bits (to its column) and the rest (to
 *       the next column), so no carry is propagated while accumulating; then word-by-word Montgomery
 *       reduction with m' = -m^-1 mod 2^radix. With inputs below 2m and R > 4m the result is below
 *       2m without a final subtraction (Walter's bound), so the code has no data-dependent branch;</li>
 *   <li>add and subtract: limb-wise, carries propagated with arithmetic shifts, then 2m subtracted
 *       and the result chosen by the sign of the difference, through a mask;</li>
 *   <li>addUnreduced and subtractUnreduced, for a sum or difference that only goes into a
 *       multiplication: limb-wise, no carry, no reduction (a - b + 4m, with 4m written so that no
 *       limb goes negative). Their results are below 4m (6m) with limbs below 2^(radix + 1)
 *       (2^(radix + 2)); the multiplication's column sums stay below 2^63 and, as R &gt; 24m for
 *       both curves, its result below 2m (MontgomeryField says which combinations are allowed);</li>
 *   <li>multiplyColumns, squareColumns, subtractTwiceColumns and reduceColumns split a
 *       multiplication into its column sums and its reduction, so that a difference of two products
 *       (a b - 2 c d, in both point formulas) costs one reduction: the columns of a b - 2 c d + 8m^2
 *       may be negative, the reduction carries with arithmetic shifts, and the value, below 20m^2
 *       &lt; R m, reduces to below 2m.</li>
 * </ul>
 */
final class MontgomeryFieldSource {
    /** One generated class: its name, what the modulus is, the modulus, limb count and limb size. */
    record Spec(String className, String description, BigInteger modulus, int limbs, int radix) {
    }

    static final BigInteger P256R1_P = new BigInteger("A9FB57DBA1EEA9BC3E660A909D838D726E3BF623D52620282013481D1F6E5377", 16);
    static final BigInteger P256R1_N = new BigInteger("A9FB57DBA1EEA9BC3E660A909D838D718C397AA3B561A6F7901E0E82974856A7", 16);
    static final BigInteger P384R1_P = new BigInteger("8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B412B1DA197FB71123"
            + "ACD3A729901D1A71874700133107EC53", 16);
    static final BigInteger P384R1_N = new BigInteger("8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B31F166E6CAC0425A7"
            + "CF3AB6AF6B7FC3103B883202E9046565", 16);

    static final List<Spec> SPECS = List.of(
            new Spec("BrainpoolP256r1Field", "the field prime p of brainpoolP256r1", P256R1_P, 5, 52),
            new Spec("BrainpoolP256r1Order", "the group order n of brainpoolP256r1", P256R1_N, 5, 52),
            new Spec("BrainpoolP384r1Field", "the field prime p of brainpoolP384r1", P384R1_P, 7, 56),
            new Spec("BrainpoolP384r1Order", "the group order n of brainpoolP384r1", P384R1_N, 7, 56));

    private final Spec spec;
    private final StringBuilder out = new StringBuilder();
    private final long[] m;
    private final long[] twoM;
    private final long[] fourM;
    private final long[] eightMSquared;
    private final long mask;
    private final long mPrime;

    private MontgomeryFieldSource(Spec spec) {
        this.spec = spec;
        int n = spec.limbs();
        int b = spec.radix();
        BigInteger r = BigInteger.ONE.shiftLeft(n * b);
        if (r.compareTo(spec.modulus().shiftLeft(4)) <= 0 || !spec.modulus().testBit(0)) {
            throw new IllegalArgumentException("R = 2^" + (n * b) + " must exceed 16m and m must be odd");
        }
        this.mask = (1L << b) - 1;
        this.m = limbs(spec.modulus(), n, b);
        this.twoM = limbs(spec.modulus().shiftLeft(1), n, b);
        this.fourM = limbs(spec.modulus().shiftLeft(2), n, b);
        this.eightMSquared = limbs(spec.modulus().pow(2).shiftLeft(3), 2 * n, b);
        this.mPrime = spec.modulus().negate().modInverse(BigInteger.ONE.shiftLeft(b)).longValueExact();
    }

    /** The Java source of one generated class. */
    static String source(Spec spec) {
        return new MontgomeryFieldSource(spec).write();
    }

    /** Writes every generated class into the given directory (the crypto package's source directory). */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "common/src/main/java/eu/vpki/common/etsi/crypto");
        for (Spec spec : SPECS) {
            Files.writeString(dir.resolve(spec.className() + ".java"), source(spec), StandardCharsets.UTF_8);
        }
    }

    private static long[] limbs(BigInteger v, int n, int b) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = i == n - 1 ? v.shiftRight(b * i).longValueExact() : v.shiftRight(b * i).longValue() & ((1L << b) - 1);
        }
        return out;
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v).toUpperCase(Locale.ROOT) + "L";
    }

    private void line(String s) {
        out.append(s).append('\n');
    }

    private String write() {
        int n = spec.limbs();
        int b = spec.radix();
        line("// Generated by MontgomeryFieldSource (common/src/test/java/eu/vpki/common/etsi/crypto/): do not edit.");
        line("package eu.vpki.common.etsi.crypto;");
        line("");
        line("import java.math.BigInteger;");
        line("");
        line("/**");
        line(" * Montgomery arithmetic modulo " + spec.description() + ": " + n + " limbs of " + b + " bits,");
        line(" * R = 2^" + (n * b) + ". Straight-line code without a data-dependent branch or memory index; see");
        line(" * {@link MontgomeryField} for the contract and {@code MontgomeryFieldSource} for the method.");
        line(" */");
        line("final class " + spec.className() + " extends MontgomeryField {");
        line("    private static final long MASK = " + hex(mask) + ";");
        line("");
        line("    " + spec.className() + "() {");
        line("        super(new BigInteger(\"" + spec.modulus().toString(16).toUpperCase(Locale.ROOT) + "\", 16), " + n + ", " + b + ");");
        line("    }");
        line("");
        writeMultiply(false);
        line("");
        writeMultiply(true);
        line("");
        writeAdd();
        line("");
        writeSubtract();
        line("");
        writeAddUnreduced();
        line("");
        writeSubtractUnreduced();
        line("");
        writeColumns(false);
        line("");
        writeColumns(true);
        line("");
        writeSubtractTwiceColumns();
        line("");
        writeReduceColumns();
        line("}");
        return out.toString();
    }

    /** multiply or square: products into columns, then the reduction. */
    private void writeMultiply(boolean square) {
        line("    @Override");
        line(square ? "    void square(long[] a, long[] r) {" : "    void multiply(long[] a, long[] b, long[] r) {");
        writeProducts(square);
        writeReduction();
        line("    }");
    }

    /** multiplyColumns or squareColumns: the products alone, as raw column sums. */
    private void writeColumns(boolean square) {
        line("    @Override");
        line(square ? "    void squareColumns(long[] a, long[] w) {" : "    void multiplyColumns(long[] a, long[] b, long[] w) {");
        writeProducts(square);
        for (int k = 0; k < 2 * spec.limbs(); k++) {
            line("        w[" + k + "] = c" + k + ";");
        }
        line("    }");
    }

    /** reduceColumns: the reduction of column sums (possibly negative ones) given in w. */
    private void writeReduceColumns() {
        int n = spec.limbs();
        line("    @Override");
        line("    void reduceColumns(long[] w, long[] r) {");
        StringBuilder decl = new StringBuilder("        long lo, hi, m");
        for (int k = 0; k < 2 * n; k++) {
            decl.append(", c").append(k).append(" = w[").append(k).append(']');
        }
        line(decl.append(';').toString());
        writeReduction();
        line("    }");
    }

    /** subtractTwiceColumns: w1 - 2 w2 + 8m^2, column by column. */
    private void writeSubtractTwiceColumns() {
        line("    @Override");
        line("    void subtractTwiceColumns(long[] w1, long[] w2, long[] r) {");
        for (int k = 0; k < 2 * spec.limbs(); k++) {
            line("        r[" + k + "] = w1[" + k + "] - (w2[" + k + "] << 1) + " + hex(eightMSquared[k]) + ";");
        }
        line("    }");
    }

    private void writeProducts(boolean square) {
        int n = spec.limbs();
        int b = spec.radix();
        int shift = 64 - b;
        for (int i = 0; i < n; i++) {
            line(square
                    ? "        final long a" + i + " = a[" + i + "];"
                    : "        final long a" + i + " = a[" + i + "], b" + i + " = b[" + i + "];");
        }
        if (square) {
            for (int i = 1; i < n; i++) {
                line("        final long d" + i + " = a" + i + " << 1;");
            }
        }
        StringBuilder decl = new StringBuilder("        long lo, hi, m");
        for (int k = 0; k < 2 * n; k++) {
            decl.append(", c").append(k).append(" = 0");
        }
        line(decl.append(';').toString());
        for (int i = 0; i < n; i++) {
            for (int j = square ? i : 0; j < n; j++) {
                String y = square ? (i == j ? "a" + j : "d" + j) : "b" + j;
                product("a" + i, y, i + j, shift, b);
            }
        }
    }

    /**
     * Word-by-word Montgomery reduction of the columns c0..c(2n-1) into r. Carries use arithmetic
     * shifts, so columns may be negative as long as the whole value is not.
     */
    private void writeReduction() {
        int n = spec.limbs();
        int b = spec.radix();
        int shift = 64 - b;
        for (int i = 0; i < n; i++) {
            line("        m = (c" + i + " * " + hex(mPrime) + ") & MASK;");
            line("        lo = m * " + hex(m[0]) + ";");
            line("        hi = Math.multiplyHigh(m, " + hex(m[0]) + ");");
            line("        c" + (i + 1) + " += ((c" + i + " + (lo & MASK)) >> " + b + ") + ((hi << " + shift + ") | (lo >>> " + b + "));");
            for (int j = 1; j < n; j++) {
                product("m", hex(m[j]), i + j, shift, b);
            }
        }
        for (int k = n; k < 2 * n - 1; k++) {
            line("        r[" + (k - n) + "] = c" + k + " & MASK;");
            line("        c" + (k + 1) + " += c" + k + " >> " + b + ";");
        }
        line("        r[" + (n - 1) + "] = c" + (2 * n - 1) + ";");
    }

    private void product(String x, String y, int column, int shift, int b) {
        line("        lo = " + x + " * " + y + ";");
        line("        hi = Math.multiplyHigh(" + x + ", " + y + ");");
        line("        c" + column + " += lo & MASK;");
        line("        c" + (column + 1) + " += (hi << " + shift + ") | (lo >>> " + b + ");");
    }

    private void writeAdd() {
        int n = spec.limbs();
        line("    @Override");
        line("    void add(long[] a, long[] b, long[] r) {");
        for (int i = 0; i < n; i++) {
            line("        long s" + i + " = a[" + i + "] + b[" + i + "];");
        }
        reduceBelowTwoM();
        line("    }");
    }

    private void writeSubtract() {
        int n = spec.limbs();
        line("    @Override");
        line("    void subtract(long[] a, long[] b, long[] r) {");
        for (int i = 0; i < n; i++) {
            line("        long s" + i + " = a[" + i + "] - b[" + i + "] + " + hex(twoM[i]) + ";");
        }
        reduceBelowTwoM();
        line("    }");
    }

    private void writeAddUnreduced() {
        line("    @Override");
        line("    void addUnreduced(long[] a, long[] b, long[] r) {");
        for (int i = 0; i < spec.limbs(); i++) {
            line("        r[" + i + "] = a[" + i + "] + b[" + i + "];");
        }
        line("    }");
    }

    /** a - b + 4m limb by limb, with 4m as limbs that are each at least the largest limb of b. */
    private void writeSubtractUnreduced() {
        int n = spec.limbs();
        long base = 1L << spec.radix();
        line("    @Override");
        line("    void subtractUnreduced(long[] a, long[] b, long[] r) {");
        for (int i = 0; i < n; i++) {
            long c = i == 0 ? fourM[0] + base : i < n - 1 ? fourM[i] + base - 1 : fourM[i] - 1;
            line("        r[" + i + "] = a[" + i + "] - b[" + i + "] + " + hex(c) + ";");
        }
        line("    }");
    }

    /** s (in (0, 4m), limbs not yet normalised) to r = s or s - 2m, whichever is in [0, 2m), by a mask. */
    private void reduceBelowTwoM() {
        int n = spec.limbs();
        int b = spec.radix();
        for (int i = 0; i < n - 1; i++) {
            line("        s" + (i + 1) + " += s" + i + " >> " + b + ";");
            line("        s" + i + " &= MASK;");
        }
        line("        long t0 = s0 - " + hex(twoM[0]) + ";");
        for (int i = 1; i < n; i++) {
            line("        long t" + i + " = s" + i + " - " + hex(twoM[i]) + " + (t" + (i - 1) + " >> " + b + ");");
            line("        t" + (i - 1) + " &= MASK;");
        }
        line("        final long keep = t" + (n - 1) + " >> 63;");
        for (int i = 0; i < n; i++) {
            line("        r[" + i + "] = (s" + i + " & keep) | (t" + i + " & ~keep);");
        }
    }
}
