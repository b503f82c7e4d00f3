package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.etsi.ts103097.GeographicRegion;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Validity;

import java.util.List;

/**
 * Requested or confirmed certificate attributes (TS 102 941 CertificateSubjectAttributes without
 * certIssuePermissions): each part may be absent (null, or an empty permission list).
 */
public record SubjectAttributes(Validity validity, GeographicRegion region, Integer assuranceLevel, List<PsidSsp> appPermissions) {
    public SubjectAttributes {
        appPermissions = appPermissions == null ? List.of() : List.copyOf(appPermissions);
    }

    public static SubjectAttributes permissions(List<PsidSsp> appPermissions) {
        return new SubjectAttributes(null, null, null, appPermissions);
    }
}
