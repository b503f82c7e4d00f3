package eu.vpki.benchmarks;

import eu.vpki.common.etsi.crypto.DeploymentCa;
import eu.vpki.common.etsi.crypto.DeploymentCredentials;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What signing a replicated command costs (issue #18): {@link DeploymentCredentials}, as a replica reads them
 * from the key stores a {@link DeploymentCa} issued, over a message the size of an enrolment command's unsigned
 * encoding (876 bytes, the codec's fuzz seed {@code seed-enrolment}). {@code sign}: what the origin adds per
 * command (SHA-256, ECDSA nistP256). {@code check}: what each replica adds per command it receives (the
 * certificate looked up among those already verified, its replica id and validity, SHA-256 and the signature
 * verification), the case of every command after a peer's first.
 *
 * <p>Per-receiver tags (issue #20, docs/design-replication-security.md, "Per-receiver tags"; the replication
 * package's {@code ReceiverTags} is internal, so these run the same JDK operations it runs, over a message the size
 * of a signed enrolment command, 1,312 bytes): {@code tag}, what the origin adds per command and receiver (HMAC-SHA256
 * with the pair's key: a thread's {@code Mac}, initialised with the key per use); {@code checkByTag}, what a receiver
 * with a valid tag does instead of {@code check} (the certificate's checks without the signature, the HMAC and a
 * constant-time comparison); {@code agree}, the static ECDH a pair's key is derived from, once per peer certificate.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ReplicationSigningBenchmark {
    private static final char[] PASSWORD = "bench".toCharArray();
    /** Bytes of an enrolment command's unsigned encoding. */
    private static final int COMMAND_BYTES = 876;
    /** Bytes of a signed enrolment command's encoding (with the certificate and the signature). */
    private static final int SIGNED_COMMAND_BYTES = 1_312;

    private Path dir;
    private DeploymentCredentials origin;
    private DeploymentCredentials replica;
    private byte[] message;
    private byte[] certificate;
    private byte[] signature;
    private long originMillis;
    private byte[] signedCommand;
    private Mac mac;
    private SecretKeySpec tagKey;
    private byte[] tag;

    @Setup
    public void setUp() throws IOException {
        SecureRandom random = new SecureRandom();
        Instant now = Instant.now();
        DeploymentCa ca = DeploymentCa.generate("benchmark deployment CA", now.minusSeconds(60), Duration.ofDays(1), random);
        dir = Files.createTempDirectory("vpki-replication-signing-");
        ca.writeTrustStore(dir.resolve("trust.p12"), PASSWORD);
        for (String id : new String[]{"ea-0", "ea-1"}) {
            ca.issueKeyStore(id, now.minusSeconds(60), Duration.ofDays(1), random, dir.resolve(id + ".p12"), PASSWORD);
        }
        origin = DeploymentCredentials.read(dir.resolve("ea-0.p12"), PASSWORD, dir.resolve("trust.p12"), PASSWORD, random);
        replica = DeploymentCredentials.read(dir.resolve("ea-1.p12"), PASSWORD, dir.resolve("trust.p12"), PASSWORD, random);
        message = new byte[COMMAND_BYTES];
        random.nextBytes(message);
        certificate = origin.certificate();
        signature = origin.sign(message);
        originMillis = now.toEpochMilli();
        String refusal = replica.refusal("ea-0", originMillis, certificate, message, signature);
        if (refusal != null) {
            throw new IllegalStateException("setup: " + refusal);
        }
        signedCommand = new byte[SIGNED_COMMAND_BYTES];
        random.nextBytes(signedCommand);
        byte[] key = new byte[32];
        random.nextBytes(key);
        tagKey = new SecretKeySpec(key, "HmacSHA256");
        try {
            mac = Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        tag = tag();
        if (!checkByTag()) {
            throw new IllegalStateException("setup: the tag does not verify");
        }
    }

    @TearDown
    public void tearDown() throws IOException {
        for (String name : new String[]{"trust.p12", "ea-0.p12", "ea-1.p12"}) {
            Files.deleteIfExists(dir.resolve(name));
        }
        Files.deleteIfExists(dir);
    }

    @Benchmark
    public byte[] sign() {
        return origin.sign(message);
    }

    @Benchmark
    public String check() {
        return replica.refusal("ea-0", originMillis, certificate, message, signature);
    }

    @Benchmark
    public byte[] tag() {
        try {
            mac.init(tagKey);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return mac.doFinal(signedCommand);
    }

    @Benchmark
    public boolean checkByTag() {
        return replica.refusal("ea-0", originMillis, certificate) == null && MessageDigest.isEqual(tag(), tag);
    }

    @Benchmark
    public byte[] agree() {
        return replica.agree(certificate);
    }
}
