package eu.vpki.benchmarks;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.agreement.ECDHBasicAgreement;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
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
 * Key generation (raw {@code ECKeyPairGenerator} against {@link EtsiKeyPair#generate}) and the raw
 * BouncyCastle ECDH agreement that every ECIES operation contains (ours is not exposed on its own:
 * see {@link EncryptionBenchmark#oursDecryptKey}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class KeyAgreementBenchmark {
    @Param({"NIST_P256", "BRAINPOOL_P256R1", "BRAINPOOL_P384R1"})
    public EtsiCurve curve;

    private SecureRandom random;
    private ECDomainParameters domain;
    private ECPrivateKeyParameters ours;
    private ECPublicKeyParameters theirs;

    @Setup
    public void setUp() {
        random = new SecureRandom();
        domain = RawBc.domain(curve);
        ours = RawBc.priv(RawBc.keyPair(domain, random));
        theirs = RawBc.pub(RawBc.keyPair(domain, random));
    }

    @Benchmark
    public AsymmetricCipherKeyPair bcKeyGeneration() {
        return RawBc.keyPair(domain, random);
    }

    @Benchmark
    public EtsiKeyPair oursKeyGeneration() {
        return EtsiKeyPair.generate(curve, random);
    }

    @Benchmark
    public BigInteger bcEcdh() {
        ECDHBasicAgreement agreement = new ECDHBasicAgreement();
        agreement.init(ours);
        return agreement.calculateAgreement(theirs);
    }
}
