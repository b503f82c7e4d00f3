package eu.vpki.benchmarks;

import eu.vpki.common.etsi.crypto.EcdsaSignature;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyAgreement;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.crypto.SoftwareKeyAgreement;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.crypto.pkcs11.KeyCeremony;
import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings;
import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Token;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * What an authority key costs in a PKCS#11 token against the same key in memory (issue #36): one
 * ECDSA signature over a digest (through the token: {@code CKM_ECDSA}, DER to r/s and the verification
 * every token signature gets) and one ECDH agreement (the ECIES decryption's Z; {@code CKM_ECDH1_DERIVE}
 * and reading Z back). Run by {@code benchmarks/run-hsm-benchmark.sh}, which makes a SoftHSM2 token and
 * sets {@code SOFTHSM2_CONF}, {@code VPKI_BENCH_PKCS11_MODULE}, {@code VPKI_BENCH_PKCS11_SLOT} and
 * {@code VPKI_PKCS11_PIN} before the JVM starts (the module reads its configuration once).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class HsmBenchmark {
    @Param({"NIST_P256", "BRAINPOOL_P256R1", "BRAINPOOL_P384R1"})
    public EtsiCurve curve;

    @Param({"software", "pkcs11"})
    public String backend;

    private Pkcs11Token token;
    private EtsiSigner signer;
    private EtsiKeyAgreement agreement;
    private EtsiPublicKey peer;
    private byte[] digest;

    @Setup(Level.Trial)
    public void setUp() {
        SecureRandom random = new SecureRandom();
        digest = new byte[curve.hash().length()];
        random.nextBytes(digest);
        EtsiCurve encryptionCurve = curve.encryptionCapable() ? curve : EtsiCurve.BRAINPOOL_P256R1;
        peer = EtsiKeyPair.generate(encryptionCurve, random).publicKey();
        if (backend.equals("software")) {
            signer = new SoftwareSigner(EtsiKeyPair.generate(curve, random), random);
            agreement = new SoftwareKeyAgreement(EtsiKeyPair.generate(encryptionCurve, random));
            return;
        }
        Pkcs11Settings settings = new Pkcs11Settings(Path.of(env("VPKI_BENCH_PKCS11_MODULE")),
                Long.parseLong(env("VPKI_BENCH_PKCS11_SLOT")), 0,
                Pkcs11Settings.pin(null, System.getenv(), Pkcs11Settings.PIN_ENV));
        String suffix = curve.name().toLowerCase(java.util.Locale.ROOT) + "-" + Long.toHexString(random.nextLong());
        try (KeyCeremony ceremony = KeyCeremony.open(settings, Clock.systemUTC(), random)) {
            ceremony.generate("bench-sign-" + suffix, curve, KeyCeremony.Purpose.SIGNING);
            ceremony.generate("bench-enc-" + suffix, encryptionCurve, KeyCeremony.Purpose.ENCRYPTION);
        }
        token = Pkcs11Token.open(settings, Clock.systemUTC(), random);
        signer = token.signer("bench-sign-" + suffix, curve);
        agreement = token.keyAgreement("bench-enc-" + suffix, encryptionCurve);
    }

    private static String env(String name) {
        String v = System.getenv(name);
        if (v == null) {
            throw new IllegalStateException(name + " is not set: run benchmarks/run-hsm-benchmark.sh");
        }
        return v;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (token != null) {
            token.close();
        }
    }

    /** One signature (through the token: including the check that it verifies). */
    @Benchmark
    public EcdsaSignature sign() {
        return signer.signDigest(digest);
    }

    /** One ECDH agreement with the encryption key (brainpoolP256r1 where the signing curve is brainpoolP384r1). */
    @Benchmark
    public byte[] keyAgreement() {
        return agreement.sharedX(peer);
    }
}
