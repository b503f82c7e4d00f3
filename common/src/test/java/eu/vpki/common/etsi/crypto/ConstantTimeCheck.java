package eu.vpki.common.etsi.crypto;

import org.bouncycastle.util.BigIntegers;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A dudect-style timing test of the operations that handle a secret scalar (Reparaz, Balasch and
 * Verbauwhede, "Dude, is my code constant time?", 2017): each operation runs on two classes of
 * secrets, a fixed one and fresh random ones, interleaved in random order, every call timed; then
 * Welch's t-statistic between the two classes' timings, over all measurements and over the
 * measurements below several percentiles (cropping the long tail of GC, JIT and scheduler noise).
 * |t| above 10 means the time depends on the secret (dudect's threshold); below 4.5 no dependence
 * was found at this sample size. Not a unit test (timing, minutes): run it by hand, on a quiet
 * machine, with {@code common/src/test/bench/run-constant-time-check.sh [measurements per operation]}.
 *
 * <p>The fixed secrets are the ones most likely to expose a shortcut: 1 (every window digit but the
 * last is 0, so the accumulator stays at infinity) and a scalar with long zero runs. As a check
 * that the method finds a leak when there is one, the same run measures BouncyCastle's point
 * multiplication (the width-w NAF multiplier its ECDH uses, which skips zero digits), which must show
 * |t| far above 10. (BouncyCastle's whole ECDH call does not show it: a scalar-independent part of
 * it costs more than the multiplication on brainpool.)
 */
public final class ConstantTimeCheck {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final double[] CROPS = {1.0, 0.99, 0.95, 0.9, 0.75, 0.5};

    private ConstantTimeCheck() {
    }

    /** An operation on a secret scalar. */
    private record Operation(String name, byte[] fixed, java.util.function.Supplier<byte[]> random, Consumer<byte[]> run) {
    }

    public static void main(String[] args) {
        int measurements = args.length > 0 ? Integer.parseInt(args[0]) : 40_000;
        System.out.printf(Locale.ROOT, "dudect-style check, %d measurements per operation and class pair; crypto: %s%n",
                measurements, CryptoBackend.description());
        List<Operation> operations = new ArrayList<>();
        for (BrainpoolCurve c : List.of(BrainpoolCurve.P256R1, BrainpoolCurve.P384R1)) {
            byte[] one = BigIntegers.asUnsignedByteArray(c.order.byteLength, BigInteger.ONE);
            byte[] sparse = BigIntegers.asUnsignedByteArray(c.order.byteLength,
                    BigInteger.ONE.shiftLeft(c.order.modulus.bitLength() - 2).add(BigInteger.ONE));
            BrainpoolCurve.PublicPoint peer = c.multiplyBase(c.randomScalar(RANDOM));
            byte[] digest = new byte[c.order.byteLength];
            RANDOM.nextBytes(digest);
            String name = c.curve.curveName();
            operations.add(new Operation(name + " d·G (key generation), d = 1", one, () -> c.randomScalar(RANDOM), c::multiplyBase));
            operations.add(new Operation(name + " d·G, sparse d", sparse, () -> c.randomScalar(RANDOM), c::multiplyBase));
            operations.add(new Operation(name + " ECDH ladder d·Q, d = 1", one, () -> c.randomScalar(RANDOM),
                    d -> c.sharedX(d, c.decode(uncompressed(peer)))));
            operations.add(new Operation(name + " ECDH ladder d·Q, sparse d", sparse, () -> c.randomScalar(RANDOM),
                    d -> c.sharedX(d, c.decode(uncompressed(peer)))));
            BrainpoolCurve.PublicPoint recipient = c.decode(uncompressed(peer));
            c.sharedX(one, recipient);
            c.sharedX(one, recipient); // second use: the recipient now has its comb
            operations.add(new Operation(name + " ECIES encryption comb d·R, d = 1", one, () -> c.randomScalar(RANDOM),
                    d -> c.sharedX(d, recipient)));
            operations.add(new Operation(name + " ECDSA sign with private key d = 1", one, () -> c.randomScalar(RANDOM),
                    d -> c.sign(d, digest, RANDOM)));
            operations.add(new Operation(name + " scalar inversion mod n, k = 1", one, () -> c.randomScalar(RANDOM), k -> {
                long[] e = c.order.newElement();
                c.order.fromBytes(k, 0, k.length, e);
                c.order.invert(e, e);
            }));
        }
        org.bouncycastle.math.ec.ECPoint bcPeer = EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM).publicKey().parameters().getQ();
        byte[] bcOne = BigIntegers.asUnsignedByteArray(32, BigInteger.ONE);
        operations.add(new Operation("control, must leak: BouncyCastle's point multiplication (width-w NAF), brainpoolP256r1, d = 1", bcOne,
                () -> BrainpoolCurve.P256R1.randomScalar(RANDOM), d -> bcPeer.multiply(new BigInteger(1, d)).normalize()));

        boolean anyLeak = false;
        for (Operation op : operations) {
            double t = measure(op, measurements);
            boolean leak = Math.abs(t) > 10;
            anyLeak |= leak && !op.name().startsWith("control");
            System.out.printf(Locale.ROOT, "%-80s max |t| = %7.2f  %s%n", op.name(), Math.abs(t),
                    leak ? "TIMING DEPENDS ON THE SECRET" : Math.abs(t) < 4.5 ? "no dependence found" : "inconclusive (4.5 < |t| < 10)");
        }
        System.out.println(anyLeak ? "RESULT: a leak in our code (see above)" : "RESULT: no leak found in our code");
    }

    /** The largest |t| over the crops, after a warm-up of both classes. */
    private static double measure(Operation op, int measurements) {
        for (int i = 0; i < Math.min(3_000, measurements); i++) {
            op.run().accept(i % 2 == 0 ? op.fixed() : op.random().get());
        }
        long[] times = new long[measurements];
        boolean[] fixedClass = new boolean[measurements];
        byte[][] inputs = new byte[measurements][];
        for (int i = 0; i < measurements; i++) {
            fixedClass[i] = RANDOM.nextBoolean();
            inputs[i] = fixedClass[i] ? op.fixed() : op.random().get();
        }
        // both classes run on the same buffer: the fixed secret must not be the only one that stays in the cache
        byte[] secret = new byte[op.fixed().length];
        for (int i = 0; i < measurements; i++) {
            System.arraycopy(inputs[i], 0, secret, 0, secret.length);
            long t0 = System.nanoTime();
            op.run().accept(secret);
            times[i] = System.nanoTime() - t0;
        }
        long[] sorted = times.clone();
        Arrays.sort(sorted);
        double worst = 0;
        for (double crop : CROPS) {
            long limit = sorted[Math.min(sorted.length - 1, (int) (crop * sorted.length))];
            double t = welch(times, fixedClass, limit);
            if (Math.abs(t) > Math.abs(worst)) {
                worst = t;
            }
        }
        return worst;
    }

    /** Welch's t between the two classes, over the measurements not above {@code limit}. */
    private static double welch(long[] times, boolean[] fixedClass, long limit) {
        double[] n = new double[2];
        double[] mean = new double[2];
        double[] m2 = new double[2];
        for (int i = 0; i < times.length; i++) {
            if (times[i] > limit) {
                continue;
            }
            int c = fixedClass[i] ? 0 : 1;
            n[c]++;
            double delta = times[i] - mean[c];
            mean[c] += delta / n[c];
            m2[c] += delta * (times[i] - mean[c]);
        }
        double var0 = m2[0] / (n[0] - 1);
        double var1 = m2[1] / (n[1] - 1);
        return (mean[0] - mean[1]) / Math.sqrt(var0 / n[0] + var1 / n[1]);
    }

    private static byte[] uncompressed(BrainpoolCurve.PublicPoint p) {
        byte[] out = new byte[1 + p.x.length + p.y.length];
        out[0] = 0x04;
        System.arraycopy(p.x, 0, out, 1, p.x.length);
        System.arraycopy(p.y, 0, out, 1 + p.x.length, p.y.length);
        return out;
    }
}
