package eu.vpki.shell.keys;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EcdsaVerification;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.pkcs11.KeyCeremony;
import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings;
import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Token;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EncryptedMessage;
import eu.vpki.common.etsi.ts103097.EncryptionRecipient;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.ts103097.Validity;
import eu.vpki.common.testing.SoftHsm;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** An authority's keys in a real SoftHSM2 token, through the shell's key configuration (issue #36). */
@Tag("softhsm")
class Pkcs11KeySourceTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.BRAINPOOL_P256R1);
    private static final Clock CLOCK = Clock.systemUTC();

    @TempDir
    static Path dir;
    private static Pkcs11Settings settings;
    private static Path certificateFile;
    private static Path pinFile;

    @BeforeAll
    static void tokenAndCertificate() throws IOException {
        settings = SoftHsm.createToken("shell-keys-test");
        try (KeyCeremony ceremony = KeyCeremony.open(settings, CLOCK, TestPki.RANDOM)) {
            var signing = ceremony.generate("ea-sign", EtsiCurve.BRAINPOOL_P256R1, KeyCeremony.Purpose.SIGNING);
            var encryption = ceremony.generate("ea-enc", EtsiCurve.BRAINPOOL_P256R1, KeyCeremony.Purpose.ENCRYPTION);
            ceremony.generate("other-p256", EtsiCurve.NIST_P256, KeyCeremony.Purpose.SIGNING);
            EtsiCertificate ea = CertificateIssuer.issue(CertificateProfiles.enrolmentAuthority("ea.token.test",
                    Validity.of(TestPki.NOW, Validity.Unit.YEARS, 1), signing.publicKey(), encryption.publicKey(), null), PKI.root,
                    PKI.rootSigner());
            certificateFile = Files.write(dir.resolve("ea.cert"), ea.encoded());
        }
        pinFile = Files.writeString(dir.resolve("pin"), SoftHsm.PIN + "\n");
    }

    private final java.util.List<Pkcs11Token> opened = new java.util.ArrayList<>();

    private Pkcs11KeySource source() {
        Pkcs11Token token = Pkcs11Token.open(settings, CLOCK, new SecureRandom());
        opened.add(token);
        return new Pkcs11KeySource(token);
    }

    /**
     * Logs out: PKCS#11 login is per application, and SunPKCS11 does not log in again (so never checks
     * a PIN) while another provider of the process is logged in to the token.
     */
    @org.junit.jupiter.api.AfterEach
    void logOut() {
        opened.forEach(Pkcs11Token::close);
    }

    @Test
    void authorityKeys_fromTheToken_signAndDecryptForTheCertificate() {
        AuthorityKeys keys = AuthorityKeys.load("vpki.ea", certificateFile, "ea-sign", "ea-enc", source());

        byte[] digest = new byte[32];
        TestPki.RANDOM.nextBytes(digest);
        assertThat(EcdsaVerification.verify(keys.certificate().verificationKey(), digest, keys.signing().signDigest(digest))).isTrue();

        EtsiCertificate ea = keys.certificate();
        DataEncryption encryption = new DataEncryption(TestPki.RANDOM);
        EncryptedMessage sent = encryption.encryptFor(
                new EncryptionRecipient(ea.encryptionKey().orElseThrow(), ea.hashedId8(), ea.sha256()),
                "an enrolment request".getBytes());
        assertThat(encryption.decrypt(new DecryptionIdentity(keys.encryption(), ea.hashedId8(), ea.sha256()), sent.encoded()).plaintext())
                .isEqualTo("an enrolment request".getBytes());
    }

    @Test
    void aLabelThatIsNotThere_orAKeyOnAnotherCurve_namesTheConfigurationKey() {
        Pkcs11KeySource source = source();
        assertThatThrownBy(() -> AuthorityKeys.load("vpki.ea", certificateFile, "ea-signing", "ea-enc", source))
                .isInstanceOf(PkiException.class).hasMessageContaining("vpki.ea.signing-key-alias")
                .hasMessageContaining("no key labelled 'ea-signing'");
        assertThatThrownBy(() -> AuthorityKeys.load("vpki.ea", certificateFile, "other-p256", "ea-enc", source))
                .isInstanceOf(PkiException.class).hasMessageContaining("vpki.ea.signing-key-alias")
                .hasMessageContaining("is on secp256r1, the configuration expects brainpoolP256r1")
                .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.KEY_STORE_FAILURE);
    }

    private ApplicationContextRunner context() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KeyStoreAutoConfiguration.class))
                .withBean(Clock.class, () -> CLOCK)
                .withBean(SecureRandom.class, SecureRandom::new)
                .withPropertyValues("vpki.keystore.backend=pkcs11",
                        "vpki.keystore.pkcs11.library=" + settings.library(),
                        "vpki.keystore.pkcs11.slot=" + settings.slot());
    }

    @Test
    void pkcs11Backend_opensTheToken_andReportsItsHealth() {
        context().withPropertyValues("vpki.keystore.pkcs11.pin-file=" + pinFile).run(ctx -> {
            assertThat(ctx).hasNotFailed();
            assertThat(ctx.getBean(AuthorityKeySource.class)).isInstanceOf(Pkcs11KeySource.class);
            assertThat(ctx.getBean(AuthorityKeySource.class).mayBlock()).isTrue();
            AuthorityKeys.load("vpki.ea", certificateFile, "ea-sign", "ea-enc", ctx.getBean(AuthorityKeySource.class));
            assertThat(ctx.getBean(Pkcs11HealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void wrongPin_failsTheStartUp() throws IOException {
        Path wrong = Files.writeString(dir.resolve("wrong-pin"), "not-the-pin\n");
        context().withPropertyValues("vpki.keystore.pkcs11.pin-file=" + wrong).run(ctx -> {
            assertThat(ctx).hasFailed();
            assertThat(ctx.getStartupFailure()).rootCause().hasMessageContaining("CKR_PIN_INCORRECT");
        });
    }

    @Test
    void softwareBackend_isTheDefault() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KeyStoreAutoConfiguration.class))
                .run(ctx -> assertThat(ctx).doesNotHaveBean(Pkcs11Token.class).doesNotHaveBean(Pkcs11HealthIndicator.class));
    }
}
