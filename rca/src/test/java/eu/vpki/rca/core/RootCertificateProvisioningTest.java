package eu.vpki.rca.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.SoftwareKeyStore;
import eu.vpki.common.etsi.ts103097.Psids;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RootCertificateProvisioningTest {
    private static final Instant NOW = Instant.parse("2026-11-20T12:00:00Z");
    private static final char[] PASSWORD = "test-password".toCharArray();

    @Test
    void firstStartCreatesTheRoot_laterStartsReuseIt(@TempDir Path dir) {
        RcaSettings settings = new RcaSettings("My RCA", EtsiCurve.NIST_P256, 5, Duration.ofDays(7), Duration.ofDays(7), 0.5, List.of(),
                30);
        List<String> audit = new ArrayList<>();
        SoftwareKeyStore ks = SoftwareKeyStore.openOrCreate(dir.resolve("rca.p12"), PASSWORD);
        RootCa first = RootCertificateProvisioning.loadOrCreate(ks, dir, settings, RcaState.EMPTY, NOW, new SecureRandom(),
                (t, kv) -> audit.add(t));

        assertThat(first.certificate().selfSigned()).isTrue();
        assertThat(first.certificate().name()).contains("My RCA");
        assertThat(first.certificate().verificationKey().curve()).isEqualTo(EtsiCurve.NIST_P256);
        assertThat(first.certificate().hasAppPermission(Psids.CRL)).isTrue();
        assertThat(first.certificate().hasAppPermission(Psids.CTL)).isTrue();
        assertThat(first.certificate().isCa()).isTrue();
        assertThat(first.certificate().validity().end()).isAfter(NOW.plus(Duration.ofDays(4 * 365)));
        assertThat(audit).containsExactly("root-certificate-created");

        SoftwareKeyStore reopened = SoftwareKeyStore.openOrCreate(dir.resolve("rca.p12"), PASSWORD);
        RcaSettings changed = new RcaSettings("Other", EtsiCurve.BRAINPOOL_P384R1, 9, Duration.ofDays(7), Duration.ofDays(7), 0.5,
                List.of(), 30);
        RootCa again = RootCertificateProvisioning.loadOrCreate(reopened, dir, changed, RcaState.EMPTY, NOW.plusSeconds(60),
                new SecureRandom(), (t, kv) -> audit.add(t));
        assertThat(again.certificate()).isEqualTo(first.certificate());
        assertThat(again.signer().publicKey()).isEqualTo(first.signer().publicKey());
        assertThat(audit).hasSize(1);
    }

    @Test
    void certificateWithoutItsKey_stopsTheStart(@TempDir Path dir) throws Exception {
        RcaSettings settings = new RcaSettings("RCA", EtsiCurve.NIST_P256, 5, Duration.ofDays(7), Duration.ofDays(7), 0.5, List.of(), 30);
        RootCertificateProvisioning.loadOrCreate(SoftwareKeyStore.openOrCreate(dir.resolve("rca.p12"), PASSWORD), dir, settings,
                RcaState.EMPTY, NOW, new SecureRandom(), (t, kv) -> {
                });
        Files.delete(dir.resolve("rca.p12"));
        SoftwareKeyStore empty = SoftwareKeyStore.openOrCreate(dir.resolve("rca.p12"), PASSWORD);
        assertThatThrownBy(() -> RootCertificateProvisioning.loadOrCreate(empty, dir, settings, RcaState.EMPTY, NOW,
                new SecureRandom(), (t, kv) -> {
                })).isInstanceOfSatisfying(PkiException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.KEY_STORE_FAILURE));
    }

    @Test
    void keyInAToken_usesTheCeremonysCertificate_andRefusesAMissingOrForeignOne(@TempDir Path dir) throws Exception {
        // the signer stands for the token's (issue #36): only the certificate checks are under test here
        var tokenKey = eu.vpki.common.etsi.crypto.EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, new SecureRandom());
        var signer = new eu.vpki.common.etsi.crypto.SoftwareSigner(tokenKey, new SecureRandom());
        assertThatThrownBy(() -> RootCertificateProvisioning.loadFromToken(curve -> signer, dir))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.KEY_STORE_FAILURE))
                .hasMessageContaining("is missing").hasMessageContaining("key ceremony");

        var root = eu.vpki.common.etsi.ts103097.CertificateIssuer.selfSign(eu.vpki.common.etsi.ts103097.CertificateProfiles.rootCa("RCA",
                eu.vpki.common.etsi.ts103097.Validity.of(NOW, eu.vpki.common.etsi.ts103097.Validity.Unit.YEARS, 5), tokenKey.publicKey(),
                null,
                eu.vpki.common.etsi.ts103097.CertificateProfiles.defaultAuthorizationTicketRanges(), null), signer);
        Files.write(dir.resolve(RootCertificateProvisioning.CERTIFICATE_FILE), root.encoded());
        // the token is asked for the key on the certificate's curve
        var asked = new java.util.ArrayList<EtsiCurve>();
        assertThat(RootCertificateProvisioning.loadFromToken(curve -> {
            asked.add(curve);
            return signer;
        }, dir).certificate()).isEqualTo(root);
        assertThat(asked).containsExactly(EtsiCurve.BRAINPOOL_P256R1);

        var other = new eu.vpki.common.etsi.crypto.SoftwareSigner(
                eu.vpki.common.etsi.crypto.EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, new SecureRandom()), new SecureRandom());
        assertThatThrownBy(() -> RootCertificateProvisioning.loadFromToken(curve -> other, dir))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.KEY_STORE_FAILURE))
                .hasMessageContaining("does not carry the token's key");
    }
}
