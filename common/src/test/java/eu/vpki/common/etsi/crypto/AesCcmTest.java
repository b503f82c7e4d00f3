package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.util.HexFormat;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AesCcmTest {
    private static final HexFormat HEX = HexFormat.of();

    /** IEEE Std 1609.2a-2017 Annex D.6.1 (AES-CCM-128), vectors 1 and 4. */
    @ParameterizedTest(name = "D.6.1 vector with key {0}")
    @CsvSource({
            "E58D5C8F8C9ED9785679E08ABC7C8116, A9F593C09EAEEA8BF0C1CF6A, "
                    + "0653B5714D1357F4995BDDACBE10873951A1EBA663718D1AF35D2F0D52C79DE49BE622C4A6D90647BA2B004C3E8AE422FD27063AFA19AD883DCCBD97D98B8B0461B5671E75F19701C24042B8D3AF79B9FF62BC448EF9440B1EA3F7E5C0F4BFEFE3E326E62D5EE4CB4B4CFFF30AD5F49A7981ABF71617245B96E522E1ADD78A, "
                    + "5F82B9FCE34B94835395DD89D71FB758D2A3907FBF2FD58994A2B9CF8725AF26F0B23853C27A06E35EE72CAD827713C18FA5DDA971D9BAA7B42A301FF60C6E4AD651C1BB6ED4F25F7D0FF387A11627934CD11F86984EA3AC969DDA9A020AD6424B0D393E3FB4B1119ADF5CDB012A59753E41D47E5E5A8C3A118ED407049B56D53BF56CB38C0B20A2502D1DA70B9761",
            "B8453A728060F8D517BACEED3829F4D9, CFBCE69C884D5BABBBAAF9A3, "
                    + "F7629B73DAE85A9BCA45C42EB7FC1818DC74A60E13AE65A043E24B5A4D3AE04C273E7D6F42710F2D223D09EB7C1315718A5A1293D482E4C45C3E852E5106AAD7B695A02C4854801A5EFE937A6540BCE8734E8141558C3433B1D4C733DC5EF9C47B5279AA46EE3D8BD33B0950BE5C9EBDF18BCF069B6DAF82FF1186912F0ABA, "
                    + "DEDE575B6EFE390F2CBB4F368A711F6CDF69ABD11AF580B2BF4029F85EB835D1ABDDB30E9E9CF3F13CBA3BCC2E918713D218AF0D07CC614AF69892AFA986AF2D5E60EDB05D09D3B29E2A65B543AD6F26E5D76B660FE9184906A6315CD6B5355FA291A1E90C510DF20E46C116E2180009C287659DB8D45CC3968049FA29F08DE5D156EDF7B0DBC84E410F292868C4BE"
    })
    void matchesIeee16092KnownAnswers(String key, String nonce, String plaintext, String ciphertextAndTag) {
        byte[] k = HEX.parseHex(key);
        byte[] n = HEX.parseHex(nonce);
        byte[] p = HEX.parseHex(plaintext);
        byte[] c = HEX.parseHex(ciphertextAndTag);

        assertThat(AesCcm.encrypt(k, n, p)).isEqualTo(c);
        assertThat(AesCcm.decrypt(k, n, c)).isEqualTo(p);
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 15, 16, 17, 500, 65536})
    void agreesWithBouncyCastleProviderCcm(int size) throws Exception {
        Random random = new Random(size);
        byte[] key = new byte[16];
        byte[] nonce = new byte[12];
        byte[] plaintext = new byte[size];
        random.nextBytes(key);
        random.nextBytes(nonce);
        random.nextBytes(plaintext);
        Cipher jca = Cipher.getInstance("CCM", new BouncyCastleProvider());
        jca.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));

        byte[] ours = AesCcm.encrypt(key, nonce, plaintext);

        assertThat(ours).hasSize(size + AesCcm.TAG_BYTES).isEqualTo(jca.doFinal(plaintext));
        assertThat(AesCcm.decrypt(key, nonce, ours)).isEqualTo(plaintext);
    }

    @Test
    void decrypt_rejectsAnyFlippedBit() {
        byte[] key = new byte[16];
        byte[] nonce = new byte[12];
        byte[] sealed = AesCcm.encrypt(key, nonce, "enrolment".getBytes());
        for (int i = 0; i < sealed.length; i++) {
            byte[] tampered = sealed.clone();
            tampered[i] ^= 0x01;
            assertThatThrownBy(() -> AesCcm.decrypt(key, nonce, tampered))
                    .isInstanceOf(PkiException.class)
                    .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.DECRYPTION_FAILED);
        }
    }

    @Test
    void decrypt_rejectsInputShorterThanTag() {
        assertThatThrownBy(() -> AesCcm.decrypt(new byte[16], new byte[12], new byte[15]))
                .isInstanceOf(PkiException.class)
                .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.DECRYPTION_FAILED);
    }

    @Test
    void rejectsKeyOrNonceOfWrongLength() {
        assertThatThrownBy(() -> AesCcm.encrypt(new byte[32], new byte[12], new byte[1]))
                .isInstanceOf(PkiException.class)
                .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThatThrownBy(() -> AesCcm.decrypt(new byte[16], new byte[13], new byte[16]))
                .isInstanceOf(PkiException.class)
                .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }
}
