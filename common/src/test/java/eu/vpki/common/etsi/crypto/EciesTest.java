package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.KDF2BytesGenerator;
import org.bouncycastle.crypto.params.KDFParameters;
import org.bouncycastle.jcajce.spec.IESKEMParameterSpec;
import org.bouncycastle.jce.ECNamedCurveTable;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.jce.spec.ECNamedCurveParameterSpec;
import org.bouncycastle.jce.spec.ECPrivateKeySpec;
import org.bouncycastle.jce.spec.ECPublicKeySpec;
import org.bouncycastle.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EciesTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final Provider BC = new BouncyCastleProvider();
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * IEEE Std 1609.2a-2017 Annex D ECIES vectors (the CAMP set, with the corrected P1 values that
     * c2c-common and the generating script use): recipient r, ephemeral v, key k, P1, then V (x, y), c, t.
     */
    @ParameterizedTest(name = "ECIES vector with v = {1}")
    @CsvSource({
            "060E41440A4E35154CA0EFCB52412145836AD032833E6BC781E533BF14851085, 1384C31D6982D52BCA3BED8A7E60F52FECDAB44E5C0EA166815A8159E09FFB42, "
                    + "9169155B08B07674CBADF75FB46A7B0D, A6B7B52554B4203F7E3ACFDB3A3ED8674EE086CE5906A7CAC2F8A398306D3BE9, "
                    + "04F45A99137B1BB2C150D6D8CF7292CA07DA68C003DAA766A9AF7F67F5EE916828F6A25216F44CB64A96C229AE00B479857B3B81C1319FB2ADF0E8DB2681769729, "
                    + "A6342013D623AD6C5F6882469673AE33, 80e1d85d30f1bae4ecf1a534a89a0786",
            "060E41440A4E35154CA0EFCB52412145836AD032833E6BC781E533BF14851085, D418760F0CB2DCB856BC3C7217AD3AA36DB6742AE1DB655A3D28DF88CBBF84E1, "
                    + "9169155B08B07674CBADF75FB46A7B0D, A6B7B52554B4203F7E3ACFDB3A3ED8674EE086CE5906A7CAC2F8A398306D3BE9, "
                    + "04EE9CC7FBD9EDECEA41F7C8BD258E8D2E988E75BD069ADDCA1E5A38E534AC68185AE3C8D9FE0B1FC7438F29417C240F8BF81C358EC1A4D0C6E98D8EDBCC714017, "
                    + "DD530BE3BCD149E881E09F06E160F5A0, 06c1f0f5eaed453caf78e01a3d16a001",
            "DA5E1D853FCC5D0C162A245B9F29D38EB6059F0DB172FB7FDA6663B925E8C744, 1384C31D6982D52BCA3BED8A7E60F52FECDAB44E5C0EA166815A8159E09FFB42, "
                    + "687E9757DEBFD87B0C267330C183C7B6, 05BED5F867B89F30FE5552DF414B65B9DD4073FC385D14921C641A145AA12051, "
                    + "04F45A99137B1BB2C150D6D8CF7292CA07DA68C003DAA766A9AF7F67F5EE916828F6A25216F44CB64A96C229AE00B479857B3B81C1319FB2ADF0E8DB2681769729, "
                    + "1F6346EDAEAF57561FC9604FEBEFF44E, 373c0fa7c52a0798ec36eadfe387c3ef",
            "DA5E1D853FCC5D0C162A245B9F29D38EB6059F0DB172FB7FDA6663B925E8C744, 4624A6F9F6BC6BD088A71ED97B3AEE983B5CC2F574F64E96A531D2464137049F, "
                    + "687E9757DEBFD87B0C267330C183C7B6, 05BED5F867B89F30FE5552DF414B65B9DD4073FC385D14921C641A145AA12051, "
                    + "04121AA495C6B2C07A2B2DAEC36BD207D6620D7E6081050DF5DE3E9696868FCDCA46C31A1ABEA0BDDAAAAEFBBA3AFDBFF1AC8D196BC313FC130926810C05503950, "
                    + "6CFD13B76436CD0DB70244FAE380CBA1, c8bf18ac796b0b1d3a1256d3a91676c8"
    })
    void matchesIeee16092KnownAnswers(String r, String v, String k, String p1, String expectedV, String expectedC, String expectedT) {
        EtsiKeyPair recipient = EtsiKeyPair.fromPrivateScalar(EtsiCurve.NIST_P256, HEX.parseHex(r));
        EtsiKeyPair ephemeral = EtsiKeyPair.fromPrivateScalar(EtsiCurve.NIST_P256, HEX.parseHex(v));

        EciesEncryptedKey encrypted = Ecies.encrypt(recipient.publicKey(), HEX.parseHex(k), HEX.parseHex(p1), ephemeral);

        assertThat(encrypted.v().uncompressed()).isEqualTo(HEX.parseHex(expectedV));
        assertThat(encrypted.c()).isEqualTo(HEX.parseHex(expectedC));
        assertThat(encrypted.t()).isEqualTo(HEX.parseHex(expectedT));
        assertThat(Ecies.decrypt(recipient, encrypted, HEX.parseHex(p1))).isEqualTo(HEX.parseHex(k));
    }

    /** IEEE Std 1609.2a-2017 Annex D KDF2 vectors (shared secret, parameter P, length, output). */
    @ParameterizedTest(name = "KDF2 of {0}")
    @CsvSource({
            "96c05619d56c328ab95fe84b18264b08725b85e33fd34f08, '', 16, 443024c3dae66b95e6f5670601558f71",
            "96f600b73ad6ac5629577eced51743dd2c24c21b1ac83ee4, '', 16, b6295162a7804f5667ba9070f82fa522",
            "22518b10e70f2a3f243810ae3254139efbee04aa57c7af7d, 75eef81aa3041e33b80971203d2c0c52, 128, "
                    + "c498af77161cc59f2962b9a713e2b215152d139766ce34a776df11866a69bf2e52a13d9c7c6fc878c50c5ea0bc7b00e0da2447cfd874f6cf92f30d0097111485500c90c3af8b487872d04685d14c8d1dc8d7fa08beb0ce0ababc11f0bd496269142d43525a78e5bc79a17f59676a5706dc54d54d4d1f0bd7e386128ec26afc21"
    })
    void kdf2_matchesIeee16092KnownAnswers(String z, String p, int length, String expected) {
        assertThat(Ecies.kdf2(HEX.parseHex(z), HEX.parseHex(p), length)).isEqualTo(HEX.parseHex(expected));
    }

    @Test
    void kdf2_agreesWithBouncyCastleKdf2BytesGenerator() {
        Random random = new Random(42);
        for (int length : new int[]{1, 31, 32, 33, 48, 100}) {
            byte[] z = new byte[32];
            byte[] p1 = new byte[32];
            random.nextBytes(z);
            random.nextBytes(p1);
            KDF2BytesGenerator bc = new KDF2BytesGenerator(new SHA256Digest());
            bc.init(new KDFParameters(z, p1));
            byte[] expected = new byte[length];
            bc.generateBytes(expected, 0, length);

            assertThat(Ecies.kdf2(z, p1, length)).as("length %d", length).isEqualTo(expected);
        }
    }

    /** IEEE Std 1609.2a-2017 Annex D MAC1 vectors (HMAC-SHA256 truncated to 128 bits). */
    @ParameterizedTest(name = "MAC1 with key {0}")
    @CsvSource({
            "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b, 4869205468657265, b0344c61d8db38535ca8afceaf0bf12b",
            "4a656665, 7768617420646f2079612077616e7420666f72206e6f7468696e673f, 5bdcc146bf60754e6a042426089575c7"
    })
    void mac1_matchesIeee16092KnownAnswers(String key, String message, String tag) {
        assertThat(Ecies.mac1(HEX.parseHex(key), HEX.parseHex(message))).isEqualTo(HEX.parseHex(tag));
    }

    /** BouncyCastle's provider cipher ETSIKEMwithSHA256 is an independent ECIES implementation: V || c || t. */
    @ParameterizedTest
    @EnumSource(value = EtsiCurve.class, names = {"NIST_P256", "BRAINPOOL_P256R1"})
    void bouncyCastleEtsiKem_unwrapsOurKey(EtsiCurve curve) throws Exception {
        EtsiKeyPair recipient = EtsiKeyPair.generate(curve, RANDOM);
        byte[] p1 = randomBytes(32);
        byte[] dataKey = randomBytes(16);

        EciesEncryptedKey ours = Ecies.encrypt(recipient.publicKey(), dataKey, p1, RANDOM);
        Cipher kem = Cipher.getInstance("ETSIKEMwithSHA256", BC);
        kem.init(Cipher.UNWRAP_MODE, jcaPrivate(recipient), new IESKEMParameterSpec(p1));
        SecretKey unwrapped = (SecretKey) kem.unwrap(Arrays.concatenate(ours.v().compressed(), ours.c(), ours.t()),
                "AES", Cipher.SECRET_KEY);

        assertThat(unwrapped.getEncoded()).isEqualTo(dataKey);
    }

    @ParameterizedTest
    @EnumSource(value = EtsiCurve.class, names = {"NIST_P256", "BRAINPOOL_P256R1"})
    void encrypt_toTheSameRecipientAgainAndAgain_staysCorrectOnceItsPointTableIsBuilt(EtsiCurve curve) throws Exception {
        // the first encryption builds the fixed-point table of the recipient's point, the later ones use it
        EtsiKeyPair recipient = EtsiKeyPair.generate(curve, RANDOM);
        byte[] p1 = randomBytes(32);
        Cipher kem = Cipher.getInstance("ETSIKEMwithSHA256", BC);
        kem.init(Cipher.UNWRAP_MODE, jcaPrivate(recipient), new IESKEMParameterSpec(p1));
        java.util.Set<EtsiPublicKey> ephemeralKeys = new java.util.HashSet<>();
        for (int i = 0; i < 20; i++) {
            byte[] dataKey = randomBytes(16);
            EciesEncryptedKey ours = Ecies.encrypt(recipient.publicKey(), dataKey, p1, RANDOM);
            ephemeralKeys.add(ours.v());

            assertThat(Ecies.decrypt(recipient, ours, p1)).isEqualTo(dataKey);
            SecretKey unwrapped = (SecretKey) kem.unwrap(Arrays.concatenate(ours.v().compressed(), ours.c(), ours.t()),
                    "AES", Cipher.SECRET_KEY);
            assertThat(unwrapped.getEncoded()).isEqualTo(dataKey);
        }
        assertThat(ephemeralKeys).hasSize(20);
    }

    @ParameterizedTest
    @EnumSource(value = EtsiCurve.class, names = {"NIST_P256", "BRAINPOOL_P256R1"})
    void decrypt_recoversKeyWrappedByBouncyCastleEtsiKem(EtsiCurve curve) throws Exception {
        EtsiKeyPair recipient = EtsiKeyPair.generate(curve, RANDOM);
        byte[] p1 = randomBytes(32);
        byte[] dataKey = randomBytes(16);
        Cipher kem = Cipher.getInstance("ETSIKEMwithSHA256", BC);
        kem.init(Cipher.WRAP_MODE, jcaPublic(recipient.publicKey()), new IESKEMParameterSpec(p1, true), RANDOM);
        byte[] wrapped = kem.wrap(new SecretKeySpec(dataKey, "AES"));

        EciesEncryptedKey theirs = new EciesEncryptedKey(
                EtsiPublicKey.fromEncodedPoint(curve, Arrays.copyOfRange(wrapped, 0, 33)),
                Arrays.copyOfRange(wrapped, 33, 49), Arrays.copyOfRange(wrapped, 49, 65));

        assertThat(wrapped).hasSize(65);
        assertThat(Ecies.decrypt(recipient, theirs, p1)).isEqualTo(dataKey);
    }

    @Test
    void decrypt_rejectsFlippedTagOrCiphertextOrWrongP1() {
        EtsiKeyPair recipient = EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM);
        byte[] p1 = randomBytes(32);
        EciesEncryptedKey good = Ecies.encrypt(recipient.publicKey(), randomBytes(16), p1, RANDOM);
        byte[] t = good.t();
        t[15] ^= 0x80;
        byte[] c = good.c();
        c[0] ^= 0x01;
        byte[] otherP1 = p1.clone();
        otherP1[31] ^= 0x01;

        assertDecryptionFails(recipient, new EciesEncryptedKey(good.v(), good.c(), t), p1);
        assertDecryptionFails(recipient, new EciesEncryptedKey(good.v(), c, good.t()), p1);
        assertDecryptionFails(recipient, good, otherP1);
        assertDecryptionFails(EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM), good, p1);
    }

    @Test
    void refusesCurveWithoutEciesAndMixedCurves() {
        EtsiKeyPair p384 = EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P384R1, RANDOM);
        EtsiKeyPair nist = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        EciesEncryptedKey forNist = Ecies.encrypt(nist.publicKey(), randomBytes(16), randomBytes(32), RANDOM);

        assertThatThrownBy(() -> Ecies.encrypt(p384.publicKey(), randomBytes(16), randomBytes(32), RANDOM))
                .isInstanceOf(PkiException.class)
                .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.WRONG_CURVE);
        assertThatThrownBy(() -> Ecies.decrypt(EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM), forNist, randomBytes(32)))
                .isInstanceOf(PkiException.class)
                .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.WRONG_CURVE);
    }

    private static void assertDecryptionFails(EtsiKeyPair recipient, EciesEncryptedKey key, byte[] p1) {
        assertThatThrownBy(() -> Ecies.decrypt(recipient, key, p1))
                .isInstanceOf(PkiException.class)
                .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.DECRYPTION_FAILED);
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    private static PrivateKey jcaPrivate(EtsiKeyPair keyPair) throws Exception {
        ECNamedCurveParameterSpec spec = ECNamedCurveTable.getParameterSpec(keyPair.curve().curveName());
        return KeyFactory.getInstance("EC", BC).generatePrivate(
                new ECPrivateKeySpec(new BigInteger(1, keyPair.privateScalar()), spec));
    }

    private static PublicKey jcaPublic(EtsiPublicKey key) throws Exception {
        ECNamedCurveParameterSpec spec = ECNamedCurveTable.getParameterSpec(key.curve().curveName());
        return KeyFactory.getInstance("EC", BC).generatePublic(
                new ECPublicKeySpec(spec.getCurve().decodePoint(key.compressed()), spec));
    }
}
