package eu.vpki.common.etsi.crypto.pkcs11;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.CaCertificateRequestMessages;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.Validity;
import eu.vpki.common.testing.SoftHsm;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The key ceremony against a real SoftHSM2 token (issue #36). */
@Tag("softhsm")
class KeyCeremonyTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T10:00:00Z"), ZoneOffset.UTC);
    private static Pkcs11Settings settings;

    @BeforeAll
    static void token() {
        settings = SoftHsm.createToken("key-ceremony-test");
    }

    @ParameterizedTest
    @EnumSource(EtsiCurve.class)
    void rootCeremony_makesASelfSignedRootWithTheTokenKey(EtsiCurve curve) {
        String label = "rca-root-" + curve.curveName().toLowerCase(Locale.ROOT);
        try (KeyCeremony ceremony = KeyCeremony.open(settings, CLOCK, RANDOM)) {
            KeyCeremony.GeneratedKey key = ceremony.generate(label, curve, KeyCeremony.Purpose.SIGNING);
            EtsiCertificate root = ceremony.rootCertificate("root." + curve.curveName().toLowerCase(Locale.ROOT), label, 10);

            EtsiCertificate decoded = EtsiCertificate.decode(root.encoded());
            assertThat(decoded.verificationKey()).isEqualTo(key.publicKey());
            assertThat(decoded.isCa()).isTrue();
            assertThat(ceremony.record()).anySatisfy(line -> assertThat(line).contains(label, curve.curveName()));
            assertThat(ceremony.record()).anySatisfy(line -> assertThat(line).contains("HashedId8 " + root.hashedId8().toHex()));
        }
        try (Pkcs11Token token = Pkcs11Token.open(settings, CLOCK, RANDOM)) {
            assertThat(token.labels()).contains(label);
        }
    }

    @Test
    void subCaCeremony_makesARequestTheRootAccepts() {
        try (KeyCeremony ceremony = KeyCeremony.open(settings, CLOCK, RANDOM)) {
            var signing = ceremony.generate("ea-sign", EtsiCurve.BRAINPOOL_P256R1, KeyCeremony.Purpose.SIGNING);
            var encryption = ceremony.generate("ea-enc", EtsiCurve.BRAINPOOL_P256R1, KeyCeremony.Purpose.ENCRYPTION);
            var template = CertificateProfiles.enrolmentAuthority("ea.example", Validity.of(CLOCK.instant(), Validity.Unit.YEARS, 3),
                    signing.publicKey(), encryption.publicKey(), null);
            byte[] request = ceremony.caCertificateRequest(CaCertificateRequestMessages.CaRequest.fromTemplate(template), "ea-sign");

            var received = CaCertificateRequestMessages.parseRequest(request);
            assertThat(received.request().verificationKey()).isEqualTo(signing.publicKey());
            assertThat(received.request().encryptionKey()).isEqualTo(encryption.publicKey());
            assertThat(ceremony.record()).anySatisfy(line -> assertThat(line).contains("CA certificate request for 'ea.example'"));
        }
    }

    @Test
    void existingLabel_isNeverReplaced() {
        try (KeyCeremony ceremony = KeyCeremony.open(settings, CLOCK, RANDOM)) {
            var first = ceremony.generate("aa-sign", EtsiCurve.NIST_P256, KeyCeremony.Purpose.SIGNING);
            assertThatThrownBy(() -> ceremony.generate("aa-sign", EtsiCurve.NIST_P256, KeyCeremony.Purpose.SIGNING))
                    .isInstanceOf(PkiException.class).hasMessageContaining("never replaces")
                    .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.KEY_STORE_FAILURE);
            assertThat(ceremony.signer("aa-sign").publicKey()).isEqualTo(first.publicKey());
        }
    }

    @Test
    void encryptionKeyOnBrainpoolP384r1_isRefused() {
        try (KeyCeremony ceremony = KeyCeremony.open(settings, CLOCK, RANDOM)) {
            assertThatThrownBy(() -> ceremony.generate("enc-384", EtsiCurve.BRAINPOOL_P384R1, KeyCeremony.Purpose.ENCRYPTION))
                    .isInstanceOf(PkiException.class)
                    .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.WRONG_CURVE);
        }
    }
}
