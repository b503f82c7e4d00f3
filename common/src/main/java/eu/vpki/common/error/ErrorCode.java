package eu.vpki.common.error;

import eu.vpki.common.error.EtsiCodes.Authorization;
import eu.vpki.common.error.EtsiCodes.Enrolment;
import eu.vpki.common.error.EtsiCodes.Validation;

/**
 * Every failure the PKI can report, with a stable numeric code (never renumber: the codes appear
 * in logs, metrics and RFC 7807 problems). Each code knows which ETSI TS 102 941 response code it
 * becomes on the enrolment, authorization and authorization-validation paths; the service shells
 * map them to HTTP in one place ({@code ProblemStatus}); {@link EtsiRefusal} turns a failure into the ETSI
 * response code of its request path. The failures of the replication library are codes of this enum too (71x).
 */
public enum ErrorCode {
    // 1xx: encoding and message structure
    MALFORMED_ENCODING(100, "bytes are not a valid COER encoding of the expected type",
            Enrolment.CANTPARSE, Authorization.ITS_AA_CANTPARSE, Validation.CANTPARSE), NON_CANONICAL_ENCODING(101,
                    "encoding is valid but not canonical COER",
                    Enrolment.CANTPARSE, Authorization.ITS_AA_CANTPARSE, Validation.CANTPARSE), OVERSIZE_INPUT(102,
                            "input larger than the configured maximum",
                            Enrolment.CANTPARSE, Authorization.ITS_AA_CANTPARSE, Validation.CANTPARSE), UNEXPECTED_CONTENT(103,
                                    "message holds an unexpected content type or version",
                                    Enrolment.BADCONTENTTYPE, Authorization.ITS_AA_BADCONTENTTYPE,
                                    Validation.BADCONTENTTYPE), UNSUPPORTED_ALGORITHM(104,
                                            "curve, hash or symmetric algorithm not supported",
                                            Enrolment.UNKNOWNENCRYPTIONALGORITHM, Authorization.ITS_AA_UNKNOWNENCRYPTIONALGORITHM,
                                            Validation.UNKNOWNENCRYPTIONALGORITHM),

    // 2xx: encryption
    NOT_ENCRYPTED_FOR_US(200, "message is not encrypted for this authority's key",
            Enrolment.IMNOTTHERECIPIENT, Authorization.ITS_AA_IMNOTTHERECIPIENT, Validation.IMNOTTHERECIPIENT), DECRYPTION_FAILED(201,
                    "decryption or authentication tag check failed",
                    Enrolment.DECRYPTIONFAILED, Authorization.ITS_AA_DECRYPTIONFAILED, Validation.DECRYPTIONFAILED),

    // 3xx: signatures and certificates
    INVALID_SIGNATURE(300, "signature does not verify",
            Enrolment.INVALIDSIGNATURE, Authorization.INVALIDSIGNATURE, Validation.INVALIDSIGNATURE), UNKNOWN_SIGNER(301,
                    "signer is not a known certificate",
                    Enrolment.UNKNOWNITS, Authorization.UNKNOWNITS, Validation.UNKNOWNITS), UNKNOWN_ISSUER(302,
                            "certificate issuer is not trusted or does not match",
                            Enrolment.UNKNOWNITS, Authorization.INVALIDAA, Validation.INVALIDAA), CERTIFICATE_EXPIRED(303,
                                    "certificate not valid at the time of use",
                                    Enrolment.BADITSSTATUS, Authorization.ITS_AA_OUTOFSYNCREQUEST,
                                    Validation.UNKNOWNITS), CERTIFICATE_NOT_YET_VALID(304, "certificate validity has not started",
                                            Enrolment.BADITSSTATUS, Authorization.ITS_AA_OUTOFSYNCREQUEST,
                                            Validation.UNKNOWNITS), VALIDITY_NOT_NESTED(305, "validity period exceeds the issuer's",
                                                    Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS,
                                                    Validation.DENIEDREQUEST), PERMISSIONS_EXCEED_ISSUER(306,
                                                            "app permissions or SSPs not covered by the issuer's certIssuePermissions",
                                                            Enrolment.DENIEDPERMISSIONS, Authorization.ITS_AA_DENIEDPERMISSIONS,
                                                            Validation.DENIEDPERMISSIONS), REGION_EXCEEDS_ISSUER(307,
                                                                    "region not inside the issuer's region",
                                                                    Enrolment.DENIEDPERMISSIONS, Authorization.ITS_AA_DENIEDPERMISSIONS,
                                                                    Validation.DENIEDPERMISSIONS), UNKNOWN_PSID(308,
                                                                            "PSID is not one this PKI issues",
                                                                            Enrolment.DENIEDPERMISSIONS,
                                                                            Authorization.ITS_AA_DENIEDPERMISSIONS,
                                                                            Validation.DENIEDPERMISSIONS), CERTIFICATE_REVOKED(309,
                                                                                    "certificate or its issuer is revoked",
                                                                                    Enrolment.BADITSSTATUS, Authorization.ITS_AA_INVALIDEA,
                                                                                    Validation.UNKNOWNITS), NOT_TRUSTED(310,
                                                                                            "chain does not lead to a trusted root through the CTL",
                                                                                            Enrolment.UNKNOWNITS,
                                                                                            Authorization.ITS_AA_UNKNOWNEA,
                                                                                            Validation.INVALIDAA), WRONG_CURVE(311,
                                                                                                    "key or signature on a curve the profile does not allow",
                                                                                                    Enrolment.INVALIDKEYS,
                                                                                                    Authorization.ITS_AA_UNKNOWNENCRYPTIONALGORITHM,
                                                                                                    Validation.UNKNOWNENCRYPTIONALGORITHM), INVALID_PROFILE(
                                                                                                            312,
                                                                                                            "certificate does not fit its TS 103 097 profile",
                                                                                                            Enrolment.BADCONTENTTYPE,
                                                                                                            Authorization.ITS_AA_BADCONTENTTYPE,
                                                                                                            Validation.BADCONTENTTYPE), INVALID_KEY(
                                                                                                                    313,
                                                                                                                    "public key is not a valid point on its curve",
                                                                                                                    Enrolment.INVALIDKEYS,
                                                                                                                    Authorization.ITS_AA_INVALIDENCRYPTIONKEY,
                                                                                                                    Validation.INVALIDENCRYPTIONKEY),

    // 4xx: TS 102 941 protocol checks
    KEY_TAG_MISMATCH(400, "keyTag does not match the requested keys",
            Enrolment.BADCONTENTTYPE, Authorization.ITS_AA_KEYSDONTMATCH, Validation.BADCONTENTTYPE), PROOF_OF_POSSESSION_FAILED(401,
                    "proof of possession of the requested key does not verify",
                    Enrolment.INVALIDSIGNATURE, Authorization.INVALIDSIGNATURE, Validation.INVALIDSIGNATURE), REPLAYED_REQUEST(402,
                            "request already seen within its validity window",
                            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_OUTOFSYNCREQUEST, Validation.DENIEDREQUEST), OUTDATED_REQUEST(403,
                                    "generation time outside the accepted window",
                                    Enrolment.DENIEDREQUEST, Authorization.ITS_AA_OUTOFSYNCREQUEST,
                                    Validation.DENIEDREQUEST), UNKNOWN_STATION(404, "station is not registered",
                                            Enrolment.UNKNOWNITS, Authorization.UNKNOWNITS, Validation.UNKNOWNITS), STATION_NOT_ACTIVE(405,
                                                    "station is suspended or revoked",
                                                    Enrolment.BADITSSTATUS, Authorization.DENIEDPERMISSIONS,
                                                    Validation.DENIEDPERMISSIONS), PERMISSIONS_NOT_ALLOWED(406,
                                                            "requested permissions beyond what the operator allowed",
                                                            Enrolment.DENIEDPERMISSIONS, Authorization.DENIEDPERMISSIONS,
                                                            Validation.DENIEDPERMISSIONS), VALIDITY_NOT_ALLOWED(407,
                                                                    "requested validity beyond what is allowed",
                                                                    Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS,
                                                                    Validation.DENIEDPERMISSIONS), CANONICAL_KEY_MISMATCH(408,
                                                                            "request not signed with the station's registered canonical key",
                                                                            Enrolment.INVALIDSIGNATURE, Authorization.INVALIDSIGNATURE,
                                                                            Validation.INVALIDSIGNATURE), UNKNOWN_EA(409,
                                                                                    "EA named by the request is not in the current CTL",
                                                                                    Enrolment.DENIEDREQUEST, Authorization.ITS_AA_UNKNOWNEA,
                                                                                    Validation.WRONGEA), EA_REFUSED(410,
                                                                                            "the EA refused the authorization validation",
                                                                                            Enrolment.DENIEDREQUEST,
                                                                                            Authorization.DENIEDPERMISSIONS,
                                                                                            Validation.DENIEDREQUEST), EA_UNREACHABLE(411,
                                                                                                    "no EA replica answered the authorization validation",
                                                                                                    Enrolment.DENIEDREQUEST,
                                                                                                    Authorization.AA_EA_CANTREACHEA,
                                                                                                    Validation.DENIEDREQUEST), REQUEST_HASH_MISMATCH(
                                                                                                            412,
                                                                                                            "response does not answer this request",
                                                                                                            Enrolment.BADCONTENTTYPE,
                                                                                                            Authorization.ITS_AA_BADCONTENTTYPE,
                                                                                                            Validation.BADCONTENTTYPE),

    // 5xx: configuration, keys and internal failures
    KEY_STORE_FAILURE(500, "key store cannot be read or written",
            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST), INTERNAL_ERROR(501,
                    "internal failure",
                    Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST), INVALID_ARGUMENT(502,
                            "an argument is out of its allowed range",
                            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST), NOT_FOUND(503,
                                    "no such authority, trust list or root",
                                    Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS,
                                    Validation.DENIEDREQUEST), STALE_DATA(504, "older than (or conflicting with) what is already held",
                                            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS,
                                            Validation.DENIEDREQUEST), UNAVAILABLE(505, "a service this one depends on did not answer",
                                                    Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS,
                                                    Validation.DENIEDREQUEST),

    // 6xx: access control of management APIs
    UNAUTHENTICATED(600, "missing or invalid credentials",
            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST), API_DISABLED(601,
                    "this API is disabled by configuration",
                    Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST), TOO_MANY_ATTEMPTS(602,
                            "too many failed authentication attempts from this client; retry later",
                            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST), TLS_REQUIRED(603,
                                    "credentials are accepted over TLS (https) only",
                                    Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST),

    // 7xx: fleet administration (Operator REST) and the replicated fleet state
    DUPLICATE_ID(700, "an identifier is already registered or given twice",
            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST), INVALID_STATE_TRANSITION(701,
                    "the record's status does not allow this change",
                    Enrolment.BADITSSTATUS, Authorization.DENIEDPERMISSIONS, Validation.DENIEDPERMISSIONS), VERSION_NOT_YET_APPLIED(702,
                            "this replica has not applied the presented version yet",
                            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS,
                            Validation.DENIEDREQUEST), REPLICATION_UNAVAILABLE(703,
                                    "the write could not be replicated (no majority or outcome unknown), "
                                            + "or this replica is out of service (minority, catching up, failed)",
                                    Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST),
    /**
     * This replica's Redis is at (or within a few per cent of) its {@code maxmemory}: the write is refused before it is
     * sent, so nothing was written anywhere; reads still answer. An operator raises {@code maxmemory} or the host's
     * memory (docs/deployment.md, "Sizing").
     */
    STORAGE_FULL(704, "this replica's Redis is at its memory limit (maxmemory): writes are refused, nothing was written",
            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST),

    // 71x: failures of the replication library (eu.vpki.common.replication.ReplicationException), numbered
    // 710 + the number they had as ReplicationException.Code (1-6) before it was folded in here. A service
    // reports every one of them as REPLICATION_UNAVAILABLE ({@link #reported()}); they appear as such in logs.
    /** The replica is not (or no longer) a member of the cluster. Nothing was written. */
    NOT_CONNECTED(711, "this replica is not a member of its cluster",
            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST),
    /**
     * The view holds no majority of the expected members, or this replica has not heard from a majority
     * within the lease, so it serves nothing. Nothing was written.
     */
    NO_MAJORITY(712, "this replica's view holds no majority, or its lease expired",
            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST),
    /**
     * The command was sent but not confirmed in time (or the majority was lost during the request):
     * it may or may not be applied. Retrying the same operations is safe (they are idempotent).
     */
    TIMEOUT_OUTCOME_UNKNOWN(713, "the write was not confirmed in time: it may or may not be applied",
            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST),
    /** This replica could not apply to its own Redis; it leaves the cluster. The outcome elsewhere is unknown. */
    APPLY_FAILED(714, "this replica could not apply to its Redis",
            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST),
    /** Joining failed: the group could not be joined, or a snapshot could not be fetched. */
    STATE_TRANSFER_FAILED(715, "the cluster could not be joined or its state not fetched",
            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST),
    /**
     * The replica is a member of a majority but is catching up (after joining, a restart or a merge,
     * or while a command of some origin is missing here), so it serves nothing yet. Nothing was written.
     */
    NOT_SERVING(716, "this replica is catching up and serves nothing yet",
            Enrolment.DENIEDREQUEST, Authorization.ITS_AA_DENIEDPERMISSIONS, Validation.DENIEDREQUEST);

    private final int code;
    private final String summary;
    private final int enrolmentResponseCode;
    private final int authorizationResponseCode;
    private final int authorizationValidationResponseCode;

    ErrorCode(int code, String summary, int enrolment, int authorization, int validation) {
        this.code = code;
        this.summary = summary;
        this.enrolmentResponseCode = enrolment;
        this.authorizationResponseCode = authorization;
        this.authorizationValidationResponseCode = validation;
    }

    /**
     * Whether the failure lies on this side (keys, an internal error, a service it depends on,
     * replication) rather than in what was asked. The services log refusals for such codes at WARN
     * (ERROR for {@link #INTERNAL_ERROR}), all others at INFO.
     */
    public boolean serverSide() {
        return switch (this) {
            case KEY_STORE_FAILURE, INTERNAL_ERROR, UNAVAILABLE, EA_UNREACHABLE, VERSION_NOT_YET_APPLIED, REPLICATION_UNAVAILABLE,
                    STORAGE_FULL ->
                true;
            default -> replication();
        };
    }

    /** Whether this is a failure of the replication library (71x), raised as a {@code ReplicationException}. */
    public boolean replication() {
        return code / 10 == 71;
    }

    /**
     * The code a requester is told and metrics count: {@link #REPLICATION_UNAVAILABLE} for a failure of the
     * replication library ({@link #replication()}: which one stays in the log), this code for every other.
     */
    public ErrorCode reported() {
        return replication() ? REPLICATION_UNAVAILABLE : this;
    }

    /** Stable numeric code, e.g. 300 for {@link #INVALID_SIGNATURE}. */
    public int code() {
        return code;
    }

    public String summary() {
        return summary;
    }

    /** Value of TS 102 941 {@code EnrolmentResponseCode} (0 = ok is never returned here). */
    public int enrolmentResponseCode() {
        return enrolmentResponseCode;
    }

    /** Value of TS 102 941 {@code AuthorizationResponseCode}. */
    public int authorizationResponseCode() {
        return authorizationResponseCode;
    }

    /** Value of TS 102 941 {@code AuthorizationValidationResponseCode}. */
    public int authorizationValidationResponseCode() {
        return authorizationValidationResponseCode;
    }
}
