package eu.vpki.benchmarks;

import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts103097.DataSigning;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.SignedMessage;
import eu.vpki.common.etsi.ts103097.SignerKind;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

/**
 * EtsiTs103097Data-Signed of a 300-byte payload, PSID 623, signer = digest of the EA certificate
 * (nistP256), as every EA/AA response is signed; and the receiving side: parse (canonical COER)
 * and verify against the EA certificate (decoded once and kept). Compare with the raw
 * sign / verify figures of {@link EcdsaBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SignedDataBenchmark {
    private TestPki pki;
    private SoftwareSigner eaSigner;
    private byte[] payload;
    private byte[] signed;

    @Setup
    public void setUp() {
        SecureRandom random = new SecureRandom();
        pki = new TestPki(EtsiCurve.NIST_P256);
        eaSigner = new SoftwareSigner(pki.eaKey, random);
        payload = TestPki.payload(300);
        signed = oursSign();
        oursParseAndVerify();
    }

    @Benchmark
    public byte[] oursSign() {
        return DataSigning.sign(payload, Psids.SECURED_CERTIFICATE_REQUEST, TestPki.NOW, SignerKind.DIGEST, eaSigner, pki.ea);
    }

    @Benchmark
    public SignedMessage oursParseAndVerify() {
        return SignedMessage.parse(signed).requireSignedBy(pki.ea);
    }
}
