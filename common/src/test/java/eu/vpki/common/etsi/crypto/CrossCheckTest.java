package eu.vpki.common.etsi.crypto;

import org.bouncycastle.crypto.agreement.ECDHBasicAgreement;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.KDF2BytesGenerator;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.KDFParameters;
import org.bouncycastle.crypto.params.KeyParameter;
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
 * Random keys, signatures, key agreements and ECIES key encryptions, each checked against
 * BouncyCastle's generic arithmetic through the entry points the services call: per round on one
 * curve, the public key of a random scalar, our signature verified by BouncyCastle, BouncyCastle's
 * signature verified by us (and rejected over a changed digest), and the ECDH value with a peer key
 * decoded from its compressed encoding: five checks; on the curves with ECIES (the P-256 ones) two
 * more: a key we encrypt (fresh ephemeral key, ECDH with the recipient's decoded key) decrypted by
 * BouncyCastle's lightweight ECDH, KDF2 and HMAC, and one BouncyCastle encrypts decrypted by us.
 * {@code mvn verify} runs 150 rounds per curve; the long run,
 * {@code common/src/test/bench/run-cross-check.sh}, sets {@code -Dvpki.crypto.crosscheck.rounds=20000}
 * for 100,000 checks per curve or more (docs/design-brainpool-arithmetic.md, "Correctness"). Every
 * round is reproducible from its seed, which a failure names.
 */
class CrossCheckTest {
    private static final int ROUNDS = Integer.getInteger("vpki.crypto.crosscheck.rounds", 150);
    private static final int CHECKS_PER_ROUND = 5;
    private static final int ECIES_CHECKS_PER_ROUND = 2;

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
        int perRound = CHECKS_PER_ROUND + (curve.encryptionCapable() ? ECIES_CHECKS_PER_ROUND : 0);
        assertThat(checks.get()).isEqualTo((long) ROUNDS * perRound);
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
        byte[] expected = BigIntegers.asUnsignedByteArray(curve.fieldBytes(),
                peerPoint.multiply(d).normalize().getAffineXCoord().toBigInteger());
        assertThat(Arrays.equals(z, expected)).as("ECDH value").isTrue();
        if (!curve.encryptionCapable()) {
            return CHECKS_PER_ROUND;
        }

        EtsiPublicKey recipient = EtsiPublicKey.fromEncodedPoint(curve, q.getEncoded(true));
        byte[] p1 = new byte[32];
        random.nextBytes(p1);
        byte[] dataKey = new byte[Ecies.KEY_BYTES];
        random.nextBytes(dataKey);
        EciesEncryptedKey ours1 = Ecies.encrypt(recipient, dataKey, p1, random);
        ECPoint v = domain.getCurve().decodePoint(ours1.v().compressed());
        byte[] k1k2 = bcKdf(bcAgree(d, v, domain, curve), p1);
        assertThat(bcMac(k1k2, ours1.c())).as("BouncyCastle's tag over our encryption").isEqualTo(ours1.t());
        assertThat(xor16(ours1.c(), k1k2)).as("BouncyCastle decrypts our encryption").isEqualTo(dataKey);

        BigInteger ephemeral = new BigInteger(n.bitLength() + 64, random).mod(n.subtract(BigInteger.ONE)).add(BigInteger.ONE);
        ECPoint ephemeralPoint = domain.getG().multiply(ephemeral).normalize();
        byte[] theirK1k2 = bcKdf(bcAgree(ephemeral, q, domain, curve), p1);
        byte[] c = xor16(dataKey, theirK1k2);
        EciesEncryptedKey theirs2 = new EciesEncryptedKey(EtsiPublicKey.fromEncodedPoint(curve, ephemeralPoint.getEncoded(true)),
                c, bcMac(theirK1k2, c));
        assertThat(Ecies.decrypt(ours, theirs2, p1)).as("we decrypt BouncyCastle's encryption").isEqualTo(dataKey);
        return CHECKS_PER_ROUND + ECIES_CHECKS_PER_ROUND;
    }

    private static byte[] bcAgree(BigInteger d, ECPoint peer, ECDomainParameters domain, EtsiCurve curve) {
        ECDHBasicAgreement agreement = new ECDHBasicAgreement();
        agreement.init(new ECPrivateKeyParameters(d, domain));
        return BigIntegers.asUnsignedByteArray(curve.fieldBytes(), agreement.calculateAgreement(new ECPublicKeyParameters(peer, domain)));
    }

    /** K1 || K2 of IEEE 1609.2 ECIES with BouncyCastle's KDF2. */
    private static byte[] bcKdf(byte[] z, byte[] p1) {
        KDF2BytesGenerator kdf = new KDF2BytesGenerator(SHA256Digest.newInstance());
        kdf.init(new KDFParameters(z, p1));
        byte[] k1k2 = new byte[Ecies.KEY_BYTES + 32];
        kdf.generateBytes(k1k2, 0, k1k2.length);
        return k1k2;
    }

    /** MAC1 with BouncyCastle's HMAC: HMAC-SHA256 under K2, first 16 bytes. */
    private static byte[] bcMac(byte[] k1k2, byte[] c) {
        HMac hmac = new HMac(SHA256Digest.newInstance());
        hmac.init(new KeyParameter(k1k2, Ecies.KEY_BYTES, 32));
        hmac.update(c, 0, c.length);
        byte[] full = new byte[32];
        hmac.doFinal(full, 0);
        return Arrays.copyOf(full, Ecies.TAG_BYTES);
    }

    private static byte[] xor16(byte[] a, byte[] k1k2) {
        byte[] out = new byte[Ecies.KEY_BYTES];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) (a[i] ^ k1k2[i]);
        }
        return out;
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
