package eu.vpki.benchmarks;

import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.ts103097.DataEncryption;
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
 * The response envelope: 500 bytes encrypted with a pre-shared AES key ({@code pskRecipInfo}) and
 * decrypted again. Compare with {@link AesCcmBenchmark}: the difference is the COER envelope, the
 * key's HashedId8 and the nonce.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class PreSharedKeyBenchmark {
    private DataEncryption encryption;
    private byte[] key;
    private byte[] plaintext;
    private byte[] encrypted;

    @Setup
    public void setUp() {
        SecureRandom random = new SecureRandom();
        encryption = new DataEncryption(random);
        key = new byte[16];
        random.nextBytes(key);
        plaintext = TestPki.payload(500);
        encrypted = encryption.encryptWithPreSharedKey(key, plaintext);
    }

    @Benchmark
    public byte[] oursEncrypt() {
        return encryption.encryptWithPreSharedKey(key, plaintext);
    }

    @Benchmark
    public byte[] oursDecrypt() {
        return encryption.decryptWithPreSharedKey(key, encrypted);
    }
}
