package eu.vpki.rca.core;

import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;

import java.time.Instant;

/**
 * An EA or AA certificate this Root CA issued, with the access points its CTL entry carries.
 * {@code revokedAt} is null while the authority is not revoked.
 *
 * @param itsAccessPoint EA only: enrolment URL for ITS stations
 * @param aaAccessPoint  EA only: authorization-validation URL for AAs
 * @param accessPoint    AA only: authorization URL for ITS stations
 */
public record Authority(AuthorityType type, EtsiCertificate certificate, String itsAccessPoint, String aaAccessPoint,
                        String accessPoint, Instant issuedAt, Instant revokedAt) {

    public HashedId8 hashedId8() {
        return certificate.hashedId8();
    }

    public boolean revoked() {
        return revokedAt != null;
    }

    /** Listed in the CTL at {@code now}: not revoked and its certificate not expired. */
    public boolean listedAt(Instant now) {
        return !revoked() && now.isBefore(certificate.validity().end());
    }

    public Authority revoke(Instant at) {
        return new Authority(type, certificate, itsAccessPoint, aaAccessPoint, accessPoint, issuedAt, at);
    }

    public CtlEntry ctlEntry() {
        return type == AuthorityType.EA
                ? new CtlEntry.Ea(certificate, itsAccessPoint, aaAccessPoint)
                : new CtlEntry.Aa(certificate, accessPoint);
    }
}
