package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.etsi.crypto.EtsiPublicKey;

import java.util.List;

/**
 * Everything a certificate says about its subject, before the issuer signs it. Build one with a
 * {@link CertificateProfiles} method; {@code name} is null for end entities (ECs use the canonical
 * id only inside the EA's records, ATs carry no identity).
 */
public record CertificateTemplate(String name, Validity validity, GeographicRegion region, Integer assuranceLevel,
                                  List<PsidSsp> appPermissions, List<PsidGroupPermissions> certIssuePermissions,
                                  EtsiPublicKey verificationKey, EtsiPublicKey encryptionKey) {
    public CertificateTemplate {
        appPermissions = List.copyOf(appPermissions);
        certIssuePermissions = List.copyOf(certIssuePermissions);
        if (name != null && (name.isEmpty() || name.length() > 255)) {
            throw new IllegalArgumentException("certificate name must be 1 to 255 characters");
        }
        if (assuranceLevel != null && (assuranceLevel < 0 || assuranceLevel > 255)) {
            throw new IllegalArgumentException("assurance level is one byte");
        }
    }

    public CertificateTemplate withValidity(Validity v) {
        return new CertificateTemplate(name, v, region, assuranceLevel, appPermissions, certIssuePermissions, verificationKey,
                encryptionKey);
    }

    public CertificateTemplate withRegion(GeographicRegion r) {
        return new CertificateTemplate(name, validity, r, assuranceLevel, appPermissions, certIssuePermissions, verificationKey,
                encryptionKey);
    }
}
