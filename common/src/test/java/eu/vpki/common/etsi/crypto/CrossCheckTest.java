package eu.vpki.common.etsi.crypto;

import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.util.BigIntegers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigInteger;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random keys, signatures and key agreements, each checked against BouncyCastle's generic
 * arithmetic through the entry points the services call: per round on one curve, the public key
 * of a random scalar, our signature verified by BouncyCastle, BouncyCastle's signature verified by
 * us (and rejected over a changed digest), and the ECDH value with a peer key decoded from its
 * compressed encoding: five checks. {@code mvn verify} runs 150 rounds per curve; the long run,
 * {@code common/src/test/bench/run-cross-check.sh}, sets {@code -Dvpki.crypto.crosscheck.rounds=20000}
 * for 100,000 checks per curve (docs/design-brainpool-arithmetic.md, "Correctness"). Every round
 * is reproducible from its seed, which a failure names.
 */
class CrossCheckTest {
    private static final int ROUNDS = Integer.getInteger("vpki.crypto.crosscheck.rounds", 150);
    private static final int CHECKS_PER_ROUND = 5;

    @ParameterizedTest
    @EnumSource(EtsiCurve.class)
    void randomOperations_agreeWithBouncyCastle(EtsiCurve curve) {
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicLong checks = new AtomicLong();
        IntStream.range(0, ROUNDS).parallel().forEach(round -> {
            long seed = curve.ordinal() * 1_000_000_007L + round;
            try {
                checks.addAndGet(round(curve, seeded(seed)));
            } catch (AssertionError | RuntimeException e) {
                failures.add("round " + round + " (seed " + seed + "): " + e);
            }
        });
        assertThat(List.copyOf(failures)).as("%s: rounds that disagree with BouncyCastle", curve).isEmpty();
        assertThat(checks.get()).isEqualTo((long) ROUNDS * CHECKS_PER_ROUND);
        System.out.printf("CrossCheckTest: %s, backend %s: %d checks against BouncyCastle, all agreed%n",
                curve, CryptoBackend.description(), checks.get());
    }

    private static int round(EtsiCurve curve, SecureRandom random) {
        ECDomainParameters domain = curve.domain();
        BigInteger n = domain.getN();
        BigInteger d = new BigInteger(n.bitLength() + 64, random).mod(n.subtract(BigInteger.ONE)).add(BigInteger.ONE);
        EtsiKeyPair ours = EtsiKeyPair.fromPrivateScalar(curve, BigIntegers.asUnsignedByteArray(curve.fieldBytes(), d));
        ECPoint q = domain.getG().multiply(d).normalize();
        assertThat(ours.publicKey().uncompressed()).as("d·G").isEqualTo(q.getEncoded(false));

        byte[] digest = new byte[curve.hash().length()];
        random.nextBytes(digest);
        EcdsaSignature signature = new SoftwareSigner(ours, random).signDigest(digest);
        ECDSASigner bc = new ECDSASigner();
        bc.init(false, new ECPublicKeyParameters(q, domain));
        assertThat(bc.verifySignature(digest, new BigInteger(1, signature.r()), new BigInteger(1, signature.s())))
                .as("BouncyCastle verifies our signature").isTrue();

        bc.init(true, new ParametersWithRandom(new ECPrivateKeyParameters(d, domain), random));
        BigInteger[] rs = bc.generateSignature(digest);
        EcdsaSignature theirs = new EcdsaSignature(curve, BigIntegers.asUnsignedByteArray(curve.fieldBytes(), rs[0]),
                BigIntegers.asUnsignedByteArray(curve.fieldBytes(), rs[1]));
        EtsiPublicKey decoded = EtsiPublicKey.fromEncodedPoint(curve, q.getEncoded(true));
        assertThat(EcdsaVerification.verify(decoded, digest, theirs)).as("we verify BouncyCastle's signature").isTrue();
        byte[] changed = digest.clone();
        changed[random.nextInt(changed.length)] ^= (byte) (1 << random.nextInt(8));
        assertThat(EcdsaVerification.verify(decoded, changed, theirs)).as("a changed digest fails").isFalse();

        BigInteger peer = new BigInteger(n.bitLength() + 64, random).mod(n.subtract(BigInteger.ONE)).add(BigInteger.ONE);
        ECPoint peerPoint = domain.getG().multiply(peer).normalize();
        byte[] z = Ecies.sharedSecret(ours, EtsiPublicKey.fromEncodedPoint(curve, peerPoint.getEncoded(true)));
        byte[] expected = BigIntegers.asUnsignedByteArray(curve.fieldBytes(), peerPoint.multiply(d).normalize().getAffineXCoord().toBigInteger());
        assertThat(Arrays.equals(z, expected)).as("ECDH value").isTrue();
        return CHECKS_PER_ROUND;
    }

    private static SecureRandom seeded(long seed) {
        try {
            SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
            r.setSeed(seed);
            return r;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
