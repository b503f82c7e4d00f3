package eu.vpki.benchmarks;

import eu.vpki.common.etsi.crypto.EcdsaSignature;
import eu.vpki.common.etsi.crypto.EcdsaVerification;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.util.BigIntegers;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

/**
 * ECDSA over a precomputed digest (32 bytes; 48 for brainpoolP384r1): raw BouncyCastle
 * {@link ECDSASigner} against {@link SoftwareSigner#signDigest} and {@link EcdsaVerification#verify},
 * with the same key. In {@code bcVerify} / {@code oursVerify} the verification key is decoded once
 * and kept (with whatever each keeps on the decoded key), as the services keep CA keys. In
 * {@code ...VerifyFirstSeenKey} the key comes as its compressed encoding and is decoded for each
 * verification, round a ring of 64 keys, as the EA and the AA meet station keys: decompression,
 * validation and any per-key table are part of the cost.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EcdsaBenchmark {
    @Param({"NIST_P256", "BRAINPOOL_P256R1", "BRAINPOOL_P384R1"})
    public EtsiCurve curve;

    private static final int RING = 64;

    private byte[] digest;
    private ECDSASigner bcSigner;
    private ECDSASigner bcVerifier;
    private BigInteger bcR;
    private BigInteger bcS;
    private SoftwareSigner ours;
    private EtsiPublicKey oursKey;
    private EcdsaSignature oursSignature;
    private ECDomainParameters domain;
    private byte[][] ringKeys;
    private EcdsaSignature[] ringSignatures;
    private int next;

    @Setup
    public void setUp() {
        SecureRandom random = new SecureRandom();
        digest = new byte[curve.hash().length()];
        random.nextBytes(digest);
        domain = RawBc.domain(curve);
        AsymmetricCipherKeyPair kp = RawBc.keyPair(domain, random);
        bcSigner = new ECDSASigner();
        bcSigner.init(true, new ParametersWithRandom(RawBc.priv(kp), random));
        BigInteger[] rs = bcSigner.generateSignature(digest);
        bcR = rs[0];
        bcS = rs[1];
        bcVerifier = new ECDSASigner();
        bcVerifier.init(false, RawBc.pub(kp));

        EtsiKeyPair keyPair = EtsiKeyPair.fromPrivateScalar(curve, RawBc.scalar(kp, curve.fieldBytes()));
        ours = new SoftwareSigner(keyPair, random);
        oursKey = keyPair.publicKey();
        int n = curve.fieldBytes();
        oursSignature = new EcdsaSignature(curve, BigIntegers.asUnsignedByteArray(n, bcR), BigIntegers.asUnsignedByteArray(n, bcS));
        if (!EcdsaVerification.verify(oursKey, digest, oursSignature) || !bcVerifier.verifySignature(digest, bcR, bcS)) {
            throw new IllegalStateException("setup: signature does not verify");
        }
        ringKeys = new byte[RING][];
        ringSignatures = new EcdsaSignature[RING];
        for (int i = 0; i < RING; i++) {
            EtsiKeyPair k = EtsiKeyPair.generate(curve, random);
            ringKeys[i] = k.publicKey().compressed();
            ringSignatures[i] = new SoftwareSigner(k, random).signDigest(digest);
            if (!oursVerifyFirstSeenKey(i) || !bcVerifyFirstSeenKey(i)) {
                throw new IllegalStateException("setup: ring signature " + i + " does not verify");
            }
        }
    }

    @Benchmark
    public BigInteger[] bcSign() {
        return bcSigner.generateSignature(digest);
    }

    @Benchmark
    public EcdsaSignature oursSign() {
        return ours.signDigest(digest);
    }

    @Benchmark
    public boolean bcVerify() {
        return bcVerifier.verifySignature(digest, bcR, bcS);
    }

    @Benchmark
    public boolean oursVerify() {
        return EcdsaVerification.verify(oursKey, digest, oursSignature);
    }

    @Benchmark
    public boolean bcVerifyFirstSeenKey() {
        return bcVerifyFirstSeenKey(next++ & (RING - 1));
    }

    @Benchmark
    public boolean oursVerifyFirstSeenKey() {
        return oursVerifyFirstSeenKey(next++ & (RING - 1));
    }

    private boolean bcVerifyFirstSeenKey(int i) {
        ECDSASigner verifier = new ECDSASigner();
        verifier.init(false, new ECPublicKeyParameters(domain.getCurve().decodePoint(ringKeys[i]), domain));
        return verifier.verifySignature(digest, new BigInteger(1, ringSignatures[i].r()), new BigInteger(1, ringSignatures[i].s()));
    }

    private boolean oursVerifyFirstSeenKey(int i) {
        return EcdsaVerification.verify(EtsiPublicKey.fromEncodedPoint(curve, ringKeys[i]), digest, ringSignatures[i]);
    }
}
