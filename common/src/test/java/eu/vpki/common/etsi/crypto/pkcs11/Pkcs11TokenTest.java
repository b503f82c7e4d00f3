package eu.vpki.common.etsi.crypto.pkcs11;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EcdsaSignature;
import eu.vpki.common.etsi.crypto.EcdsaVerification;
import eu.vpki.common.etsi.crypto.Ecies;
import eu.vpki.common.etsi.crypto.EciesEncryptedKey;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyAgreement;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.crypto.SoftwareKeyAgreement;
import eu.vpki.common.testing.SoftHsm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.security.AuthProvider;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The PKCS#11 backend against real SoftHSM2 tokens (issue #36). */
@Tag("softhsm")
class Pkcs11TokenTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Clock CLOCK = Clock.systemUTC();
    private static Pkcs11Settings settings;
    private static Pkcs11Settings removable;

    @BeforeAll
    static void tokens() {
        // every token before the first open: the module sees only the tokens that exist when it loads
        settings = SoftHsm.createToken("pkcs11-token-test");
        removable = SoftHsm.createToken("pkcs11-removed-test");
        try (KeyCeremony ceremony = KeyCeremony.open(settings, CLOCK, RANDOM)) {
            for (EtsiCurve curve : EtsiCurve.values()) {
                ceremony.generate(signing(curve), curve, KeyCeremony.Purpose.SIGNING);
                if (curve.encryptionCapable()) {
                    ceremony.generate(encryption(curve), curve, KeyCeremony.Purpose.ENCRYPTION);
                }
            }
        }
        try (KeyCeremony ceremony = KeyCeremony.open(removable, CLOCK, RANDOM)) {
            ceremony.generate("sign", EtsiCurve.NIST_P256, KeyCeremony.Purpose.SIGNING);
        }
    }

    @AfterAll
    static void done() {
        // tokens stay in target/softhsm for inspection; mvn clean removes them
    }

    static String signing(EtsiCurve curve) {
        return "sign-" + curve.curveName().toLowerCase(Locale.ROOT);
    }

    static String encryption(EtsiCurve curve) {
        return "enc-" + curve.curveName().toLowerCase(Locale.ROOT);
    }

    private static Pkcs11Token open() {
        return Pkcs11Token.open(settings, CLOCK, RANDOM);
    }

    private static byte[] digest(EtsiCurve curve) {
        byte[] d = new byte[curve.hash().length()];
        RANDOM.nextBytes(d);
        return d;
    }

    @ParameterizedTest
    @EnumSource(EtsiCurve.class)
    void signer_signsInTheToken_andTheSignatureVerifies(EtsiCurve curve) {
        try (Pkcs11Token token = open()) {
            EtsiSigner signer = token.signer(signing(curve), curve);
            byte[] digest = digest(curve);
            EcdsaSignature signature = signer.signDigest(digest);
            assertThat(signature.curve()).isEqualTo(curve);
            assertThat(EcdsaVerification.verify(signer.publicKey(), digest, signature)).isTrue();
            byte[] other = digest.clone();
            other[0] ^= 1;
            assertThat(EcdsaVerification.verify(signer.publicKey(), other, signature)).isFalse();
            assertThat(token.health().up()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(value = EtsiCurve.class, names = {"NIST_P256", "BRAINPOOL_P256R1"})
    void keyAgreement_inTheToken_matchesSoftware_andDecryptsEcies(EtsiCurve curve) {
        try (Pkcs11Token token = open()) {
            EtsiKeyAgreement agreement = token.keyAgreement(encryption(curve), curve);
            EtsiKeyPair ephemeral = EtsiKeyPair.generate(curve, RANDOM);
            assertThat(agreement.sharedX(ephemeral.publicKey()))
                    .isEqualTo(new SoftwareKeyAgreement(ephemeral).sharedX(agreement.publicKey()));

            byte[] dataKey = new byte[Ecies.KEY_BYTES];
            RANDOM.nextBytes(dataKey);
            byte[] p1 = digest(EtsiCurve.NIST_P256);
            EciesEncryptedKey encrypted = Ecies.encrypt(agreement.publicKey(), dataKey, p1, RANDOM);
            assertThat(Ecies.decrypt(agreement, encrypted, p1)).isEqualTo(dataKey);
            assertThat(token.check().up()).isTrue();
        }
    }

    @Test
    void privateKeys_areSensitiveAndNotExtractable() throws Exception {
        try (Pkcs11Token token = open()) {
            for (String label : token.labels()) {
                PrivateKey key = (PrivateKey) token.keyStore().getKey(label, null);
                assertThat(key.getEncoded()).as(label).isNull();
                assertThat(key.toString()).as(label).contains("token object", "sensitive", "unextractable");
            }
            assertThat(token.labels()).hasSize(5);
        }
    }

    @Test
    void encryptionKey_cannotSign() {
        try (Pkcs11Token token = open()) {
            EtsiSigner misused = token.signer(encryption(EtsiCurve.NIST_P256), EtsiCurve.NIST_P256);
            assertThatThrownBy(() -> misused.signDigest(digest(EtsiCurve.NIST_P256)))
                    .isInstanceOf(PkiException.class).hasMessageContaining("CKR_KEY_FUNCTION_NOT_PERMITTED")
                    .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.KEY_STORE_FAILURE);
            assertThat(token.health().up()).isFalse();
        }
    }

    @Test
    void wrongPin_failsAtOpen() {
        Pkcs11Settings wrong = new Pkcs11Settings(settings.library(), settings.slot(), 0, "not-the-pin".toCharArray());
        assertThatThrownBy(() -> Pkcs11Token.open(wrong, CLOCK, RANDOM))
                .isInstanceOf(PkiException.class).hasMessageContaining("login failed").hasMessageContaining("CKR_PIN_INCORRECT")
                .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.KEY_STORE_FAILURE);
    }

    @Test
    void missingModuleOrSlot_failAtOpen() {
        Pkcs11Settings noModule = new Pkcs11Settings(java.nio.file.Path.of("/nonexistent/libpkcs11.so"), null, 0,
                SoftHsm.PIN.toCharArray());
        assertThatThrownBy(() -> Pkcs11Token.open(noModule, CLOCK, RANDOM)).isInstanceOf(PkiException.class)
                .hasMessageContaining("not found");
        Pkcs11Settings noSlot = new Pkcs11Settings(settings.library(), 4242L, 0, SoftHsm.PIN.toCharArray());
        assertThatThrownBy(() -> Pkcs11Token.open(noSlot, CLOCK, RANDOM)).isInstanceOf(PkiException.class)
                .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.KEY_STORE_FAILURE);
    }

    @Test
    void missingLabel_failsAtLookup_namingTheLabels() {
        try (Pkcs11Token token = open()) {
            assertThatThrownBy(() -> token.signer("no-such-key", EtsiCurve.NIST_P256))
                    .isInstanceOf(PkiException.class).hasMessageContaining("no key labelled 'no-such-key'")
                    .hasMessageContaining(signing(EtsiCurve.NIST_P256));
        }
    }

    @Test
    void keyOnTheWrongCurve_failsAtLookup() {
        try (Pkcs11Token token = open()) {
            assertThatThrownBy(() -> token.signer(signing(EtsiCurve.BRAINPOOL_P256R1), EtsiCurve.NIST_P256))
                    .isInstanceOf(PkiException.class).hasMessageContaining("is on brainpoolP256r1, the configuration expects secp256r1")
                    .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.KEY_STORE_FAILURE);
            assertThatThrownBy(() -> token.keyAgreement(signing(EtsiCurve.BRAINPOOL_P384R1), null))
                    .isInstanceOf(PkiException.class).hasMessageContaining("no ECIES");
        }
    }

    @Test
    void signatureThatDoesNotVerify_isNotReturned_andMarksTheTokenDown() {
        try (Pkcs11Token token = open()) {
            token.signer(signing(EtsiCurve.NIST_P256), EtsiCurve.NIST_P256);
            // a token answering with a valid-looking signature under another key
            EtsiSigner lying = new Pkcs11Signer(token, signing(EtsiCurve.NIST_P256),
                    EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM).publicKey());
            assertThatThrownBy(() -> lying.signDigest(digest(EtsiCurve.NIST_P256)))
                    .isInstanceOf(PkiException.class).hasMessageContaining("does not verify")
                    .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.KEY_STORE_FAILURE);
            assertThat(token.health().up()).isFalse();
            assertThat(token.health().detail()).contains("does not verify");
            // stays DOWN although the honest signer still works
            token.signer(signing(EtsiCurve.NIST_P256), EtsiCurve.NIST_P256).signDigest(digest(EtsiCurve.NIST_P256));
            assertThat(token.health().up()).isFalse();
        }
    }

    @Test
    void afterALogout_theTokenLogsInAgain_andStaysUp() throws Exception {
        try (Pkcs11Token token = open()) {
            EtsiSigner signer = token.signer(signing(EtsiCurve.BRAINPOOL_P256R1), EtsiCurve.BRAINPOOL_P256R1);
            signer.signDigest(digest(EtsiCurve.BRAINPOOL_P256R1));
            ((AuthProvider) token.provider()).logout(); // what a token restart does to the sessions
            byte[] digest = digest(EtsiCurve.BRAINPOOL_P256R1);
            assertThat(EcdsaVerification.verify(signer.publicKey(), digest, signer.signDigest(digest))).isTrue();
            assertThat(token.health().up()).isTrue();
        }
    }

    @Test
    void tokenRemovedWhileServing_failsClearly_andMarksTheTokenDown() {
        try (Pkcs11Token token = Pkcs11Token.open(removable, CLOCK, RANDOM)) {
            EtsiSigner signer = token.signer("sign", EtsiCurve.NIST_P256);
            signer.signDigest(digest(EtsiCurve.NIST_P256));
            assertThat(token.health().up()).isTrue();

            SoftHsm.deleteToken("pkcs11-removed-test");

            assertThatThrownBy(() -> signer.signDigest(digest(EtsiCurve.NIST_P256)))
                    .isInstanceOf(PkiException.class).hasMessageContaining("no key labelled 'sign'")
                    .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.KEY_STORE_FAILURE);
            assertThat(token.health().up()).isFalse();
            assertThat(token.health().detail()).contains("no key labelled 'sign'");
        }
    }
}
