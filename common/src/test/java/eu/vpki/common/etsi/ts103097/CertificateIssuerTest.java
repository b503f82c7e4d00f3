package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.HashAlgorithm;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CertificateIssuerTest {

    @ParameterizedTest
    @EnumSource(EtsiCurve.class)
    void issuedChain_rootEaAaEcAt_verifiesAndIsCanonical(EtsiCurve curve) {
        TestPki pki = new TestPki(curve);
        EtsiCertificate ec = pki.issueEc(EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM));
        EtsiCertificate at = pki.issueAt(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM));

        CertificateChecks.checkIssuedBy(pki.root, null, NOW);
        CertificateChecks.checkIssuedBy(pki.ea, pki.root, NOW);
        CertificateChecks.checkIssuedBy(pki.aa, pki.root, NOW);
        // as a relying party sees them: decoded from their bytes, signature verified
        CertificateChecks.checkIssuedBy(EtsiCertificate.decode(ec.encoded()), pki.ea, NOW);
        CertificateChecks.checkIssuedBy(EtsiCertificate.decode(at.encoded()), pki.aa, NOW);
        assertThat(EtsiCertificate.decode(at.encoded()).signatureVerifies(pki.aa)).isTrue();
        for (EtsiCertificate c : List.of(pki.root, pki.ea, pki.aa, ec, at)) {
            assertThat(c.canonical()).as("canonical %s", c).isTrue();
            assertThat(EtsiCertificate.decode(c.encoded())).isEqualTo(c);
        }
        assertThat(pki.root.selfSigned()).isTrue();
        assertThat(pki.root.hasAppPermission(Psids.CRL)).isTrue();
        assertThat(pki.root.hasAppPermission(Psids.CTL)).isTrue();
        assertThat(pki.ea.encryptionKey()).contains(pki.eaEncKey.publicKey());
        assertThat(ec.name()).isEmpty();
        assertThat(at.appPermissions()).extracting(PsidSsp::psid).containsExactly(Psids.CAM, Psids.DENM);
        assertThat(pki.ea.hashAlgorithm()).isEqualTo(curve == EtsiCurve.BRAINPOOL_P384R1 ? HashAlgorithm.SHA384 : HashAlgorithm.SHA256);
    }

    @Test
    void issue_refusesPermissionsBeyondIssuer() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        // CAM SSP with a reserved bit set: outside the AA's range 01fffc/ff0003
        var template = CertificateProfiles.authorizationTicket(Validity.of(NOW, Validity.Unit.HOURS, 1), key.publicKey(), null,
                List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0x00, (byte) 0x01)), null);
        assertThatThrownBy(() -> CertificateIssuer.issue(template, pki.aa, pki.aaSigner()))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSIONS_EXCEED_ISSUER));
    }

    @Test
    void issue_refusesValidityBeyondIssuer() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        var template = CertificateProfiles.enrolmentCredential(Validity.of(NOW, Validity.Unit.YEARS, 10), key.publicKey(), null, null);
        assertThatThrownBy(() -> CertificateIssuer.issue(template, pki.ea, pki.eaSigner()))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.VALIDITY_NOT_NESTED));
    }

    @Test
    void issue_refusesSignerThatIsNotTheIssuer() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        var template = CertificateProfiles.enrolmentCredential(Validity.of(NOW, Validity.Unit.HOURS, 1), key.publicKey(), null, null);
        assertThatThrownBy(() -> CertificateIssuer.issue(template, pki.ea, new SoftwareSigner(pki.aaKey, RANDOM)))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }

    @Test
    void issue_refusesRegionOutsideIssuer() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        EtsiKeyPair k = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        EtsiKeyPair e = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        var germany = new GeographicRegion.Countries(List.of(276));
        EtsiCertificate regionalAa = CertificateIssuer.issue(CertificateProfiles.authorizationAuthority("AA DE",
                Validity.of(NOW, Validity.Unit.YEARS, 1), k.publicKey(), e.publicKey(),
                CertificateProfiles.defaultAuthorizationTicketRanges(), germany), pki.root, pki.rootSigner());
        assertThat(regionalAa.region()).contains(germany);
        EtsiKeyPair atKey = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        var france = CertificateProfiles.authorizationTicket(Validity.of(NOW, Validity.Unit.HOURS, 1), atKey.publicKey(), null,
                List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc)), new GeographicRegion.Countries(List.of(250)));
        assertThatThrownBy(() -> CertificateIssuer.issue(france, regionalAa, new SoftwareSigner(k, RANDOM)))
                .isInstanceOfSatisfying(PkiException.class, x -> assertThat(x.code()).isEqualTo(ErrorCode.REGION_EXCEEDS_ISSUER));
        var noRegion = france.withRegion(null);
        assertThatThrownBy(() -> CertificateIssuer.issue(noRegion, regionalAa, new SoftwareSigner(k, RANDOM)))
                .isInstanceOfSatisfying(PkiException.class, x -> assertThat(x.code()).isEqualTo(ErrorCode.REGION_EXCEEDS_ISSUER));
        EtsiCertificate inGermany = CertificateIssuer.issue(france.withRegion(germany), regionalAa, new SoftwareSigner(k, RANDOM));
        assertThat(inGermany.region()).contains(germany);
    }
}
