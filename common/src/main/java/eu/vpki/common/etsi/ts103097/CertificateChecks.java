package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;

import java.time.Instant;

/**
 * The checks between a certificate and its issuer: issuer digest, signature, validity nesting,
 * permissions and region subset, canonical form. Used before an issued certificate leaves the
 * PKI and when validating a chain received from outside.
 *
 * <p>Permission rules: every appPermission of the subject must be covered by an issuer
 * certIssuePermissions group for end entities of type app; for a CA subject, each of its
 * certIssuePermissions ranges must lie within an issuer range, its end-entity types within the
 * issuer's, and the issuer must be allowed chains of length 2 or more. (The ETSI test-suite
 * certificates model sub-CA delegation this way; a stricter per-group chain-length reading would
 * reject the ETSI test EA.)
 */
public final class CertificateChecks {
    private CertificateChecks() {
    }

    /**
     * Checks {@code subject} against {@code issuer} (null: subject must be self-signed), at time
     * {@code at} (null: no time check).
     *
     * @throws PkiException with the precise failure
     */
    public static void checkIssuedBy(EtsiCertificate subject, EtsiCertificate issuer, Instant at) {
        check(subject, issuer, at, true);
    }

    /**
     * Every check of {@link #checkIssuedBy} except the issuer's signature, for a certificate this
     * process has just signed with the issuer's key ({@link CertificateIssuer} says why that is enough).
     */
    static void checkFreshlyIssuedBy(EtsiCertificate subject, EtsiCertificate issuer) {
        check(subject, issuer, null, false);
    }

    private static void check(EtsiCertificate subject, EtsiCertificate issuer, Instant at, boolean verifySignature) {
        if (!subject.canonical()) {
            throw new PkiException(ErrorCode.NON_CANONICAL_ENCODING, subject + " is not in canonical form (compressed keys, x-only r)");
        }
        if (issuer == null) {
            if (!subject.selfSigned()) {
                throw new PkiException(ErrorCode.UNKNOWN_ISSUER, subject + " is not self-signed");
            }
            if (!subject.signatureVerifies(null)) {
                throw new PkiException(ErrorCode.INVALID_SIGNATURE, "self-signature of " + subject + " does not verify");
            }
        } else {
            if (!subject.namesIssuer(issuer)) {
                throw new PkiException(ErrorCode.UNKNOWN_ISSUER, subject + " does not name " + issuer + " as issuer");
            }
            if (!issuer.isCa()) {
                throw new PkiException(ErrorCode.PERMISSIONS_EXCEED_ISSUER, issuer + " has no certIssuePermissions");
            }
            if (subject.signatureCurve() != issuer.verificationKey().curve()) {
                throw new PkiException(ErrorCode.WRONG_CURVE, "signature curve " + subject.signatureCurve()
                        + " differs from the issuer key's " + issuer.verificationKey().curve());
            }
            if (verifySignature && !subject.signatureVerifies(issuer)) {
                throw new PkiException(ErrorCode.INVALID_SIGNATURE, "signature of " + subject + " does not verify with " + issuer);
            }
            if (!subject.validity().within(issuer.validity())) {
                throw new PkiException(ErrorCode.VALIDITY_NOT_NESTED, subject + " is valid beyond its issuer " + issuer);
            }
            checkPermissions(subject, issuer);
            if (!GeographicRegion.contains(issuer.region().orElse(null), subject.region().orElse(null))) {
                throw new PkiException(ErrorCode.REGION_EXCEEDS_ISSUER, "region of " + subject + " is not inside " + issuer + "'s");
            }
        }
        if (at != null) {
            checkValidAt(subject, at);
        }
    }

    public static void checkValidAt(EtsiCertificate c, Instant at) {
        if (at.isBefore(c.validity().start())) {
            throw new PkiException(ErrorCode.CERTIFICATE_NOT_YET_VALID, c + " is not valid before " + c.validity().start());
        }
        if (!at.isBefore(c.validity().end())) {
            throw new PkiException(ErrorCode.CERTIFICATE_EXPIRED, c + " expired at " + c.validity().end());
        }
    }

    static void checkPermissions(EtsiCertificate subject, EtsiCertificate issuer) {
        for (PsidSsp p : subject.appPermissions()) {
            boolean covered = issuer.certIssuePermissions().stream().anyMatch(g -> g.eeApp() && g.covers(p));
            if (!covered) {
                throw new PkiException(ErrorCode.PERMISSIONS_EXCEED_ISSUER,
                        p + " of " + subject + " is not in the certIssuePermissions of " + issuer);
            }
        }
        if (subject.isCa()) {
            boolean issuerMayDelegate = issuer.certIssuePermissions().stream()
                    .anyMatch(g -> g.chainLengthRange() == -1 || g.minChainLength() + g.chainLengthRange() >= 2);
            if (!issuerMayDelegate) {
                throw new PkiException(ErrorCode.PERMISSIONS_EXCEED_ISSUER, issuer + " may not certify CAs (chain length)");
            }
            for (PsidGroupPermissions inner : subject.certIssuePermissions()) {
                boolean eeOk = issuer.certIssuePermissions().stream()
                        .anyMatch(g -> (!inner.eeApp() || g.eeApp()) && (!inner.eeEnrol() || g.eeEnrol()));
                boolean rangesOk = inner.all()
                        ? issuer.certIssuePermissions().stream().anyMatch(PsidGroupPermissions::all)
                        : inner.ranges().stream().allMatch(r -> issuer.certIssuePermissions().stream()
                                .anyMatch(g -> g.all() || g.ranges().stream().anyMatch(r::within)));
                if (!eeOk || !rangesOk) {
                    throw new PkiException(ErrorCode.PERMISSIONS_EXCEED_ISSUER,
                            "certIssuePermissions of " + subject + " exceed those of " + issuer);
                }
            }
        }
    }
}
