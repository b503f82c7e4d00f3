package eu.vpki.shell.keys;

import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.SoftwareKeyStore;
import eu.vpki.common.etsi.ts103097.TestPki;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AuthorityKeysTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);

    @TempDir
    static Path dir;
    /** Writing a PKCS#12 store costs seconds: one store for the class. */
    private static SoftwareKeyStore store;

    @BeforeAll
    static void createStore() {
        store = SoftwareKeyStore.openOrCreate(dir.resolve("ea.p12"), "password-0123".toCharArray());
        store.put("ea-signing", PKI.eaKey, TestPki.RANDOM);
        store.put("ea-encryption", PKI.eaEncKey, TestPki.RANDOM);
    }

    private AuthorityKeySource store() {
        return new SoftwareKeySource(store, TestPki.RANDOM);
    }

    private Path certificate() throws IOException {
        return Files.write(dir.resolve("ea.cert"), PKI.ea.encoded());
    }

    @Test
    void loadsTheCertificateAndBothKeys() throws IOException {
        AuthorityKeys keys = AuthorityKeys.load("vpki.ea", certificate(), "ea-signing", "ea-encryption", store());
        assertThat(keys.certificate()).isEqualTo(PKI.ea);
        assertThat(keys.signing().publicKey()).isEqualTo(PKI.eaKey.publicKey());
        assertThat(keys.encryption().publicKey()).isEqualTo(PKI.eaEncKey.publicKey());
    }

    @Test
    void everyMistake_namesTheKeyToFix() throws IOException {
        Path certificate = certificate();
        AuthorityKeySource store = store();
        assertThatThrownBy(() -> AuthorityKeys.load("vpki.ea", null, "ea-signing", "ea-encryption", store))
                .hasMessageContaining("vpki.ea.certificate-file is required");
        assertThatThrownBy(() -> AuthorityKeys.load("vpki.ea", dir.resolve("missing.cert"), "ea-signing", "ea-encryption", store))
                .hasMessageContaining("vpki.ea.certificate-file").hasMessageContaining("missing.cert");
        assertThatThrownBy(() -> AuthorityKeys.load("vpki.ea", certificate, "nope", "ea-encryption", store))
                .isInstanceOf(PkiException.class).hasMessageContaining("'nope'").hasMessageContaining("vpki.ea.signing-key-alias");
        assertThatThrownBy(() -> AuthorityKeys.load("vpki.ea", certificate, "ea-encryption", "ea-encryption", store))
                .hasMessageContaining("vpki.ea.signing-key-alias 'ea-encryption' is not the key of the certificate");
        assertThatThrownBy(() -> AuthorityKeys.load("vpki.ea", certificate, "ea-signing", "ea-signing", store))
                .hasMessageContaining("vpki.ea.encryption-key-alias 'ea-signing' is not the encryption key");
    }

    @Test
    void keyStorePath_defaultsPerService() {
        assertThat(new KeyStoreProperties(null, null, null, null).pathFor("ea")).isEqualTo(Path.of(".", "data", "ea.p12"));
        assertThat(new KeyStoreProperties(null, Path.of("/k.p12"), null, null).pathFor("ea")).isEqualTo(Path.of("/k.p12"));
    }
}
