package eu.vpki.benchmarks;

import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.crypto.AesCcm;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.modes.CCMBlockCipher;
import org.bouncycastle.crypto.modes.CCMModeCipher;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;
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
 * AES-128-CCM of 500 bytes (12-byte nonce, 16-byte tag): a raw BouncyCastle CCM cipher, built and
 * keyed per message as every message has its own key, against {@link AesCcm}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class AesCcmBenchmark {
    private byte[] key;
    private byte[] nonce;
    private byte[] plaintext;
    private byte[] ciphertext;

    @Setup
    public void setUp() {
        SecureRandom random = new SecureRandom();
        key = new byte[16];
        nonce = new byte[12];
        random.nextBytes(key);
        random.nextBytes(nonce);
        plaintext = TestPki.payload(500);
        ciphertext = AesCcm.encrypt(key, nonce, plaintext);
    }

    private static byte[] bc(boolean encrypt, byte[] key, byte[] nonce, byte[] input) throws InvalidCipherTextException {
        CCMModeCipher ccm = CCMBlockCipher.newInstance(AESEngine.newInstance());
        ccm.init(encrypt, new AEADParameters(new KeyParameter(key), 128, nonce));
        byte[] out = new byte[ccm.getOutputSize(input.length)];
        int n = ccm.processBytes(input, 0, input.length, out, 0);
        ccm.doFinal(out, n);
        return out;
    }

    @Benchmark
    public byte[] bcEncrypt() throws InvalidCipherTextException {
        return bc(true, key, nonce, plaintext);
    }

    @Benchmark
    public byte[] oursEncrypt() {
        return AesCcm.encrypt(key, nonce, plaintext);
    }

    @Benchmark
    public byte[] bcDecrypt() throws InvalidCipherTextException {
        return bc(false, key, nonce, ciphertext);
    }

    @Benchmark
    public byte[] oursDecrypt() {
        return AesCcm.decrypt(key, nonce, ciphertext);
    }
}
