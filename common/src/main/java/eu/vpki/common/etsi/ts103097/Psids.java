package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;

import java.util.List;
import java.util.Set;

/** ITS-AIDs (PSIDs) this PKI knows, from ETSI TS 102 965 and TS 103 097. */
public final class Psids {
    private Psids() {
    }

    /** Cooperative Awareness (CAM). */
    public static final long CAM = 36;
    /** Decentralized Environmental Notification (DENM). */
    public static final long DENM = 37;
    /** Signal Phase And Timing (SPATEM). */
    public static final long SPATEM = 137;
    /** Road topology (MAPEM). */
    public static final long MAPEM = 138;
    /** In-Vehicle Information (IVIM). */
    public static final long IVIM = 139;
    /** Signal request / status (SREM / SSEM). */
    public static final long SREM_SSEM = 140;
    /** GeoNetworking management. */
    public static final long GN_MGMT = 141;
    /** Certificate Revocation List. */
    public static final long CRL = 622;
    /** Secured certificate request service (enrolment and authorization requests/responses). */
    public static final long SECURED_CERTIFICATE_REQUEST = 623;
    /** Certificate Trust List. */
    public static final long CTL = 624;

    /** PSIDs an Authorization Ticket may carry in this PKI. */
    public static final Set<Long> AUTHORIZATION_TICKET_PSIDS = Set.of(CAM, DENM, SPATEM, MAPEM, IVIM, SREM_SSEM, GN_MGMT);

    public static boolean knownForAuthorizationTickets(long psid) {
        return AUTHORIZATION_TICKET_PSIDS.contains(psid);
    }

    /**
     * Refuses permissions naming a PSID this PKI does not issue ATs for.
     *
     * @throws PkiException {@link ErrorCode#UNKNOWN_PSID} naming the first unknown PSID
     */
    public static void requireKnownForAuthorizationTickets(List<PsidSsp> permissions) {
        for (PsidSsp p : permissions) {
            if (!knownForAuthorizationTickets(p.psid())) {
                throw new PkiException(ErrorCode.UNKNOWN_PSID, "PSID " + p.psid() + " is not issued in Authorization Tickets");
            }
        }
    }
}
