package eu.vpki.benchmarks;

import eu.vpki.common.etsi.crypto.EcdsaSignature;
import eu.vpki.common.etsi.crypto.EcdsaVerification;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.params.ECDomainParameters;
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
 * ECDSA over a precomputed 32-byte digest: raw BouncyCastle {@link ECDSASigner} against
 * {@link SoftwareSigner#signDigest} and {@link EcdsaVerification#verify}, with the same key. The
 * verification key is decoded once and kept (its precomputation table is cached on the point), as
 * the services keep CA keys.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EcdsaBenchmark {
    @Param({"NIST_P256", "BRAINPOOL_P256R1"})
    public EtsiCurve curve;

    private byte[] digest;
    private ECDSASigner bcSigner;
    private ECDSASigner bcVerifier;
    private BigInteger bcR;
    private BigInteger bcS;
    private SoftwareSigner ours;
    private EtsiPublicKey oursKey;
    private EcdsaSignature oursSignature;

    @Setup
    public void setUp() {
        SecureRandom random = new SecureRandom();
        digest = new byte[32];
        random.nextBytes(digest);
        ECDomainParameters domain = RawBc.domain(curve);
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
        oursSignature = new EcdsaSignature(curve, BigIntegers.asUnsignedByteArray(32, bcR), BigIntegers.asUnsignedByteArray(32, bcS));
        if (!EcdsaVerification.verify(oursKey, digest, oursSignature) || !bcVerifier.verifySignature(digest, bcR, bcS)) {
            throw new IllegalStateException("setup: signature does not verify");
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
}
