package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;

import static eu.vpki.common.etsi.ts103097.EncryptionFixtures.RANDOM;
import static eu.vpki.common.etsi.ts103097.EncryptionFixtures.certificateOn;
import static eu.vpki.common.etsi.ts103097.EncryptionFixtures.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataEncryptionTest {
    /*
     * Byte offsets in a certRecipInfo encoding: 03 (protocolVersion) 82 (encryptedData) 01 01
     * (one recipient) 82 (certRecipInfo) recipientId[8] 80|81 (eciesNistP256|eciesBrainpoolP256r1)
     * 82|83 (compressed-y-0|1) x[32] c[16] t[16] 80 (aes128ccm) nonce[12] length ccmCiphertext.
     */
    private static final int ENC_KEY_CHOICE = 13;
    private static final int V_X = 15;
    private static final int C = 47;
    private static final int T = 63;

    private final DataEncryption encryption = new DataEncryption(RANDOM);

    static Stream<Arguments> curvesAndSizes() {
        return Stream.of(EtsiCurve.NIST_P256, EtsiCurve.BRAINPOOL_P256R1)
                .flatMap(curve -> Stream.of(0, 1, 16, 500, 64 * 1024).map(size -> Arguments.of(curve, size)));
    }

    @ParameterizedTest(name = "{0}, {1} bytes")
    @MethodSource("curvesAndSizes")
    void encryptFor_roundTripsAndHandsBothSidesTheSameAesKey(EtsiCurve curve, int size) {
        EncryptionFixtures ea = certificateOn(curve);
        byte[] plaintext = randomBytes(size);

        EncryptedMessage sent = encryption.encryptFor(ea.recipient(), plaintext);
        DecryptedMessage received = encryption.decrypt(ea.identity(), sent.encoded());

        assertThat(received.plaintext()).isEqualTo(plaintext);
        assertThat(received.aesKey()).hasSize(16).isEqualTo(sent.aesKey());
    }

    @ParameterizedTest
    @EnumSource(value = EtsiCurve.class, names = {"NIST_P256", "BRAINPOOL_P256R1"})
    void encryptFor_writesCertRecipInfoWithCompressedEphemeralKeyLabelledByCurve(EtsiCurve curve) {
        EncryptionFixtures ea = certificateOn(curve);

        byte[] encoded = encryption.encryptFor(ea.recipient(), new byte[10]).encoded();

        assertThat(Arrays.copyOfRange(encoded, 0, 5)).isEqualTo(HexFormat.of().parseHex("0382010182"));
        assertThat(Arrays.copyOfRange(encoded, 5, 13)).isEqualTo(ea.certificateId().bytes());
        assertThat(encoded[ENC_KEY_CHOICE]).isEqualTo(curve == EtsiCurve.NIST_P256 ? (byte) 0x80 : (byte) 0x81);
        assertThat(encoded[ENC_KEY_CHOICE + 1]).isIn((byte) 0x82, (byte) 0x83);
        assertThat(encoded[T + 16]).as("aes128ccm").isEqualTo((byte) 0x80);
        assertThat(encoded).hasSize(T + 16 + 1 + 12 + 1 + 10 + 16);
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 500, 64 * 1024})
    void preSharedKey_roundTrips(int size) {
        byte[] aesKey = randomBytes(16);
        byte[] plaintext = randomBytes(size);

        byte[] encoded = encryption.encryptWithPreSharedKey(aesKey, plaintext);

        assertThat(encryption.decryptWithPreSharedKey(aesKey, encoded)).isEqualTo(plaintext);
    }

    @Test
    void preSharedKey_recipientIdIsHashedId8OfCoerSymmetricEncryptionKey() throws Exception {
        byte[] aesKey = randomBytes(16);
        // COER of SymmetricEncryptionKey.aes128Ccm: tag 0x80 (first root alternative), then the 16 octets
        byte[] coer = new byte[17];
        coer[0] = (byte) 0x80;
        System.arraycopy(aesKey, 0, coer, 1, 16);
        byte[] sha256 = MessageDigest.getInstance("SHA-256").digest(coer);
        byte[] expectedId = Arrays.copyOfRange(sha256, 24, 32);

        byte[] encoded = encryption.encryptWithPreSharedKey(aesKey, new byte[3]);

        assertThat(DataEncryption.preSharedKeyId(aesKey).bytes()).isEqualTo(expectedId);
        // 03 protocolVersion, 82 encryptedData, 01 01 one recipient, 80 pskRecipInfo, then the id
        assertThat(Arrays.copyOfRange(encoded, 0, 5)).isEqualTo(HexFormat.of().parseHex("0382010180"));
        assertThat(Arrays.copyOfRange(encoded, 5, 13)).isEqualTo(expectedId);
    }

    @Test
    void decrypt_rejectsFlippedCiphertextByte() {
        EncryptionFixtures ea = certificateOn(EtsiCurve.NIST_P256);
        byte[] encoded = encryption.encryptFor(ea.recipient(), randomBytes(100)).encoded();
        encoded[encoded.length - 40] ^= 0x01;

        assertFails(() -> encryption.decrypt(ea.identity(), encoded), ErrorCode.DECRYPTION_FAILED);
    }

    @ParameterizedTest(name = "byte {0}")
    @ValueSource(ints = {V_X + 5, C, C + 15, T, T + 15})
    void decrypt_rejectsFlippedByteInEncryptedKey(int offset) {
        EncryptionFixtures ea = certificateOn(EtsiCurve.BRAINPOOL_P256R1);
        byte[] encoded = encryption.encryptFor(ea.recipient(), randomBytes(100)).encoded();
        encoded[offset] ^= 0x04;

        assertFails(() -> encryption.decrypt(ea.identity(), encoded), ErrorCode.DECRYPTION_FAILED);
    }

    @Test
    void decrypt_refusesMessageForAnotherCertificate() {
        EncryptionFixtures ea = certificateOn(EtsiCurve.NIST_P256);
        EncryptionFixtures other = certificateOn(EtsiCurve.NIST_P256);
        byte[] encoded = encryption.encryptFor(ea.recipient(), randomBytes(10)).encoded();

        assertFails(() -> encryption.decrypt(other.identity(), encoded), ErrorCode.NOT_ENCRYPTED_FOR_US);
    }

    @Test
    void decrypt_failsWhenCertificateIdMatchesButKeyDiffers() {
        EncryptionFixtures ea = certificateOn(EtsiCurve.NIST_P256);
        DecryptionIdentity wrongKey = new DecryptionIdentity(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM),
                ea.certificateId(), ea.certificateHash());
        byte[] encoded = encryption.encryptFor(ea.recipient(), randomBytes(10)).encoded();

        assertFails(() -> encryption.decrypt(wrongKey, encoded), ErrorCode.DECRYPTION_FAILED);
    }

    @Test
    void decrypt_failsWhenCertificateHashDiffers() {
        EncryptionFixtures ea = certificateOn(EtsiCurve.NIST_P256);
        DecryptionIdentity wrongP1 = new DecryptionIdentity(ea.keyPair(), ea.certificateId(), randomBytes(32));
        byte[] encoded = encryption.encryptFor(ea.recipient(), randomBytes(10)).encoded();

        assertFails(() -> encryption.decrypt(wrongP1, encoded), ErrorCode.DECRYPTION_FAILED);
    }

    @Test
    void decrypt_refusesBrainpoolEntryForNistP256Key() {
        EncryptionFixtures ea = certificateOn(EtsiCurve.BRAINPOOL_P256R1);
        DecryptionIdentity nistKey = new DecryptionIdentity(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM),
                ea.certificateId(), ea.certificateHash());
        byte[] encoded = encryption.encryptFor(ea.recipient(), randomBytes(10)).encoded();

        assertFails(() -> encryption.decrypt(nistKey, encoded), ErrorCode.WRONG_CURVE);
    }

    @Test
    void brainpoolP384r1KeysCannotBeRecipients() {
        EncryptionFixtures ca = certificateOn(EtsiCurve.BRAINPOOL_P384R1);

        assertFails(ca::recipient, ErrorCode.WRONG_CURVE);
        assertFails(ca::identity, ErrorCode.WRONG_CURVE);
    }

    @Test
    void recipientRequiresSha256OrSha384CertificateHash() {
        EncryptionFixtures ea = certificateOn(EtsiCurve.NIST_P256);

        assertFails(() -> new EncryptionRecipient(ea.keyPair().publicKey(), ea.certificateId(), new byte[8]),
                ErrorCode.INVALID_ARGUMENT);
        assertThat(new EncryptionRecipient(ea.keyPair().publicKey(), ea.certificateId(), new byte[48]).certificateHash())
                .hasSize(48);
    }

    @Test
    void decryptWithPreSharedKey_refusesOtherKey() {
        byte[] encoded = encryption.encryptWithPreSharedKey(randomBytes(16), randomBytes(10));

        assertFails(() -> encryption.decryptWithPreSharedKey(randomBytes(16), encoded), ErrorCode.NOT_ENCRYPTED_FOR_US);
    }

    @Test
    void decryptWithPreSharedKey_rejectsFlippedCiphertextByte() {
        byte[] aesKey = randomBytes(16);
        byte[] encoded = encryption.encryptWithPreSharedKey(aesKey, randomBytes(10));
        encoded[encoded.length - 1] ^= 0x01;

        assertFails(() -> encryption.decryptWithPreSharedKey(aesKey, encoded), ErrorCode.DECRYPTION_FAILED);
    }

    @Test
    void recipientKindsDoNotCross() {
        EncryptionFixtures ea = certificateOn(EtsiCurve.NIST_P256);
        EncryptedMessage forCertificate = encryption.encryptFor(ea.recipient(), randomBytes(10));
        byte[] underPsk = encryption.encryptWithPreSharedKey(forCertificate.aesKey(), randomBytes(10));

        assertFails(() -> encryption.decryptWithPreSharedKey(forCertificate.aesKey(), forCertificate.encoded()),
                ErrorCode.NOT_ENCRYPTED_FOR_US);
        assertFails(() -> encryption.decrypt(ea.identity(), underPsk), ErrorCode.NOT_ENCRYPTED_FOR_US);
    }

    @Test
    void decrypt_rejectsEveryTruncation() {
        EncryptionFixtures ea = certificateOn(EtsiCurve.NIST_P256);
        byte[] encoded = encryption.encryptFor(ea.recipient(), randomBytes(20)).encoded();

        for (int length = 0; length < encoded.length; length++) {
            byte[] truncated = Arrays.copyOf(encoded, length);
            assertFails(() -> encryption.decrypt(ea.identity(), truncated), ErrorCode.MALFORMED_ENCODING);
            assertFails(() -> encryption.decryptWithPreSharedKey(randomBytes(16), truncated), ErrorCode.MALFORMED_ENCODING);
        }
    }

    @Test
    void decrypt_rejectsRandomBytes() {
        EncryptionFixtures ea = certificateOn(EtsiCurve.NIST_P256);
        Random random = new Random(20261101);
        for (int i = 0; i < 200; i++) {
            byte[] garbage = new byte[1 + random.nextInt(300)];
            random.nextBytes(garbage);
            assertFails(() -> encryption.decrypt(ea.identity(), garbage), ErrorCode.MALFORMED_ENCODING);
        }
    }

    @Test
    void decrypt_refusesUnencryptedData() {
        // protocolVersion 3, unsecuredData (choice 0) holding 3 bytes
        byte[] unsecured = HexFormat.of().parseHex("038003010203");

        assertFails(() -> encryption.decrypt(certificateOn(EtsiCurve.NIST_P256).identity(), unsecured),
                ErrorCode.UNEXPECTED_CONTENT);
    }

    @Test
    void preSharedKeyMustBeAes128() {
        assertFails(() -> encryption.encryptWithPreSharedKey(new byte[32], new byte[1]), ErrorCode.INVALID_ARGUMENT);
    }

    private static void assertFails(ThrowingCallable call, ErrorCode code) {
        assertThatThrownBy(call)
                .isInstanceOf(PkiException.class)
                .extracting(e -> ((PkiException) e).code()).isEqualTo(code);
    }
}
