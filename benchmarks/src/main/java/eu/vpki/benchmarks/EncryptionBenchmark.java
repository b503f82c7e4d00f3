package eu.vpki.benchmarks;

import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.crypto.Ecies;
import eu.vpki.common.etsi.crypto.EciesEncryptedKey;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DecryptedMessage;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EncryptedMessage;
import eu.vpki.common.etsi.ts103097.EncryptionRecipient;
import eu.vpki.common.etsi.ts103097.HashedId8;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.agreement.ECDHBasicAgreement;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.generators.KDF2BytesGenerator;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.modes.CCMBlockCipher;
import org.bouncycastle.crypto.modes.CCMModeCipher;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.KDFParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.util.Arrays;
import org.bouncycastle.util.BigIntegers;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

/**
 * ECIES (IEEE 1609.2: ECDH, KDF2/SHA-256, HMAC-SHA256/128) of a fresh AES key plus AES-128-CCM of a
 * 500-byte payload, to one recipient certificate. The raw BouncyCastle baseline does exactly the
 * cryptography with the lightweight API (ephemeral key generation, ECDH, KDF2, HMAC, CCM; on
 * decryption also the decompression of the ephemeral point V, which any receiver must do) and
 * produces bare byte arrays; {@link DataEncryption#encryptFor} / {@link DataEncryption#decrypt} add
 * the COER {@code Ieee1609Dot2Data} encoding (and its canonical-decoding check) around it.
 * {@code oursDecryptKey} and {@code oursEncryptKey} are the ECIES step alone ({@link Ecies#decrypt},
 * V decoded per call; {@link Ecies#encrypt}, ephemeral key generation included).
 * IEEE 1609.2 defines ECIES on the P-256 curves only.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EncryptionBenchmark {
    @Param({"NIST_P256", "BRAINPOOL_P256R1"})
    public EtsiCurve curve;

    private SecureRandom random;
    private byte[] plaintext;
    private ECDomainParameters domain;
    private ECPublicKeyParameters bcRecipient;
    private ECPrivateKeyParameters bcRecipientPrivate;
    private byte[] p1;
    private RawMessage bcMessage;
    private DataEncryption encryption;
    private EncryptionRecipient recipient;
    private DecryptionIdentity identity;
    private byte[] oursMessage;
    private EtsiKeyPair recipientKey;
    private byte[] eciesV;
    private EciesEncryptedKey eciesKey;
    private byte[] dataKey;

    /** What the raw baseline produces: compressed V, c, t, nonce, CCM ciphertext with tag. */
    public record RawMessage(byte[] v, byte[] c, byte[] t, byte[] nonce, byte[] ccm) {
    }

    @Setup
    public void setUp() {
        random = new SecureRandom();
        plaintext = TestPki.payload(500);
        domain = RawBc.domain(curve);
        AsymmetricCipherKeyPair kp = RawBc.keyPair(domain, random);
        bcRecipient = RawBc.pub(kp);
        bcRecipientPrivate = RawBc.priv(kp);
        p1 = new byte[32];
        random.nextBytes(p1);
        bcMessage = bcEncrypt();
        if (!java.util.Arrays.equals(bcDecrypt(), plaintext)) {
            throw new IllegalStateException("setup: raw ECIES round trip failed");
        }

        // ours, with the same recipient key and P1 (a recipient "certificate" of hash p1)
        EtsiKeyPair keyPair = EtsiKeyPair.fromPrivateScalar(curve, RawBc.scalar(kp, 32));
        HashedId8 id = HashedId8.of(Arrays.copyOfRange(p1, 24, 32));
        recipient = new EncryptionRecipient(keyPair.publicKey(), id, p1);
        identity = new DecryptionIdentity(keyPair, id, p1);
        encryption = new DataEncryption(random);
        oursMessage = encryption.encryptFor(recipient, plaintext).encoded();
        if (!java.util.Arrays.equals(encryption.decrypt(identity, oursMessage).plaintext(), plaintext)) {
            throw new IllegalStateException("setup: our round trip failed");
        }
        recipientKey = keyPair;
        dataKey = new byte[Ecies.KEY_BYTES];
        random.nextBytes(dataKey);
        eciesKey = Ecies.encrypt(keyPair.publicKey(), dataKey, p1, random);
        eciesV = eciesKey.v().compressed();
        if (!java.util.Arrays.equals(oursDecryptKey(), dataKey)) {
            throw new IllegalStateException("setup: ECIES key round trip failed");
        }
    }

    /**
     * ECIES decryption of the 16-byte AES key alone, as IEEE 1609.2 defines it: V decoded from its
     * compressed form (as it arrives), ECDH, KDF2, the tag check; no CCM, no COER.
     */
    @Benchmark
    public byte[] oursDecryptKey() {
        EtsiPublicKey v = EtsiPublicKey.fromEncodedPoint(curve, eciesV);
        return Ecies.decrypt(recipientKey, new EciesEncryptedKey(v, eciesKey.c(), eciesKey.t()), p1);
    }

    /**
     * ECIES encryption of a 16-byte AES key alone, as the AA does for the EA and a station for the
     * EA or AA: a fresh ephemeral key pair from {@code random}, the ECDH with the recipient's key
     * (kept decoded, as a CA key is), KDF2, the tag; no CCM, no COER.
     */
    @Benchmark
    public EciesEncryptedKey oursEncryptKey() {
        return Ecies.encrypt(recipient.encryptionKey(), dataKey, p1, random);
    }

    @Benchmark
    public RawMessage bcEncrypt() {
        byte[] aesKey = new byte[16];
        random.nextBytes(aesKey);
        AsymmetricCipherKeyPair ephemeral = RawBc.keyPair(domain, random);
        byte[] k1k2 = kdf(RawBc.priv(ephemeral), bcRecipient);
        byte[] c = new byte[16];
        for (int i = 0; i < 16; i++) {
            c[i] = (byte) (aesKey[i] ^ k1k2[i]);
        }
        byte[] t = mac(k1k2, c);
        byte[] nonce = new byte[12];
        random.nextBytes(nonce);
        return new RawMessage(RawBc.pub(ephemeral).getQ().getEncoded(true), c, t, nonce, ccm(true, aesKey, nonce, plaintext));
    }

    @Benchmark
    public byte[] bcDecrypt() {
        ECPoint v = domain.getCurve().decodePoint(bcMessage.v());
        byte[] k1k2 = kdf(bcRecipientPrivate, new ECPublicKeyParameters(v, domain));
        if (!MessageDigest.isEqual(mac(k1k2, bcMessage.c()), bcMessage.t())) {
            throw new IllegalStateException("tag");
        }
        byte[] aesKey = new byte[16];
        for (int i = 0; i < 16; i++) {
            aesKey[i] = (byte) (bcMessage.c()[i] ^ k1k2[i]);
        }
        return ccm(false, aesKey, bcMessage.nonce(), bcMessage.ccm());
    }

    @Benchmark
    public EncryptedMessage oursEncryptFor() {
        return encryption.encryptFor(recipient, plaintext);
    }

    @Benchmark
    public DecryptedMessage oursDecrypt() {
        return encryption.decrypt(identity, oursMessage);
    }

    private byte[] kdf(ECPrivateKeyParameters priv, ECPublicKeyParameters pub) {
        ECDHBasicAgreement agreement = new ECDHBasicAgreement();
        agreement.init(priv);
        byte[] z = BigIntegers.asUnsignedByteArray(32, agreement.calculateAgreement(pub));
        KDF2BytesGenerator kdf = new KDF2BytesGenerator(SHA256Digest.newInstance());
        kdf.init(new KDFParameters(z, p1));
        byte[] k1k2 = new byte[48];
        kdf.generateBytes(k1k2, 0, 48);
        return k1k2;
    }

    private static byte[] mac(byte[] k1k2, byte[] c) {
        HMac hmac = new HMac(SHA256Digest.newInstance());
        hmac.init(new KeyParameter(k1k2, 16, 32));
        hmac.update(c, 0, c.length);
        byte[] out = new byte[32];
        hmac.doFinal(out, 0);
        return Arrays.copyOf(out, 16);
    }

    private static byte[] ccm(boolean encrypt, byte[] key, byte[] nonce, byte[] input) {
        CCMModeCipher ccm = CCMBlockCipher.newInstance(AESEngine.newInstance());
        ccm.init(encrypt, new AEADParameters(new KeyParameter(key), 128, nonce));
        byte[] out = new byte[ccm.getOutputSize(input.length)];
        try {
            int n = ccm.processBytes(input, 0, input.length, out, 0);
            ccm.doFinal(out, n);
        } catch (InvalidCipherTextException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }
}
