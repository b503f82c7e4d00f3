package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SoftwareKeyStoreTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] PASSWORD = "correct horse".toCharArray();

    @ParameterizedTest
    @EnumSource(EtsiCurve.class)
    void storedKey_survivesReopening(EtsiCurve curve, @TempDir Path dir) {
        Path file = dir.resolve("keys.p12");
        EtsiKeyPair kp = SoftwareKeyStore.openOrCreate(file, PASSWORD).keyPairOrGenerate("rca-signing", curve, RANDOM);
        assertThat(file).exists();
        EtsiKeyPair again = SoftwareKeyStore.openOrCreate(file, PASSWORD).keyPair("rca-signing").orElseThrow();
        assertThat(again.publicKey()).isEqualTo(kp.publicKey());
        assertThat(again.privateScalar()).isEqualTo(kp.privateScalar());
        assertThat(SoftwareKeyStore.openOrCreate(file, PASSWORD).keyPairOrGenerate("rca-signing", curve, RANDOM).publicKey())
                .isEqualTo(kp.publicKey());
    }

    @Test
    void wrongPassword_isAKeyStoreFailure(@TempDir Path dir) {
        Path file = dir.resolve("keys.p12");
        SoftwareKeyStore.openOrCreate(file, PASSWORD).keyPairOrGenerate("k", EtsiCurve.NIST_P256, RANDOM);
        assertThatThrownBy(() -> SoftwareKeyStore.openOrCreate(file, "wrong".toCharArray()))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.KEY_STORE_FAILURE));
    }

    @Test
    void password_comesFromTheFileFirstThenTheEnvironment(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("pw");
        Files.writeString(f, "from-file\nignored\n");
        assertThat(SoftwareKeyStore.password(f, Map.of("VPKI_KEYSTORE_PASSWORD", "from-env"), "VPKI_KEYSTORE_PASSWORD"))
                .isEqualTo("from-file".toCharArray());
        assertThat(SoftwareKeyStore.password(null, Map.of("VPKI_KEYSTORE_PASSWORD", "from-env"), "VPKI_KEYSTORE_PASSWORD"))
                .isEqualTo("from-env".toCharArray());
        assertThatThrownBy(() -> SoftwareKeyStore.password(null, Map.of(), "VPKI_KEYSTORE_PASSWORD"))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.KEY_STORE_FAILURE));
    }

    @Test
    void signerFromStoredKey_producesVerifiableSignatures(@TempDir Path dir) {
        EtsiKeyPair kp = SoftwareKeyStore.openOrCreate(dir.resolve("k.p12"), PASSWORD).keyPairOrGenerate("ea", EtsiCurve.BRAINPOOL_P256R1,
                RANDOM);
        byte[] digest = HashAlgorithm.SHA256.digest(new byte[]{1, 2, 3});
        EcdsaSignature sig = new SoftwareSigner(kp, RANDOM).signDigest(digest);
        assertThat(EcdsaVerification.verify(kp.publicKey(), digest, sig)).isTrue();
        digest[0] ^= 1;
        assertThat(EcdsaVerification.verify(kp.publicKey(), digest, sig)).isFalse();
    }
}
