package eu.vpki.ea.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.slf4j.Logger;

/**
 * The one place where a failure on an EA request path becomes an ETSI response code. Anything that
 * is not a {@link PkiException} is an internal failure (its details stay in the log, never in the
 * response); a replication failure means the EC could not be stored durably, so it is not issued.
 * Every refusal is logged once, here, with the ETSI response code it is answered with.
 */
public final class EtsiRefusals {
    private EtsiRefusals() {
    }

    /** The error code a failure is reported with. */
    public static ErrorCode codeOf(Throwable failure) {
        if (failure instanceof PkiException pki) {
            return pki.code().reported();
        }
        return ErrorCode.INTERNAL_ERROR;
    }

    /**
     * Logs a refusal so that an operator can see why a vehicle was refused: the ETSI response code
     * sent, our error code and the reason (identifiers and field names, never request bytes or keys).
     * INFO for a refused request, WARN when this side could not serve it ({@link ErrorCode#serverSide()}),
     * ERROR with the stack trace for an internal failure.
     *
     * @param what     e.g. "enrolment"
     * @param etsiName the ASN.1 name of the response code the requester gets
     */
    static void log(Logger log, String what, Throwable failure, String etsiName) {
        ErrorCode code = codeOf(failure);
        if (code == ErrorCode.INTERNAL_ERROR) {
            log.error("{} refused with {} (internal failure)", what, etsiName, failure);
        } else if (code.serverSide()) {
            log.warn("{} refused with {} ({} {}): {}", what, etsiName, code.code(), code, failure.getMessage());
        } else {
            log.info("{} refused with {} ({} {}): {}", what, etsiName, code.code(), code, failure.getMessage());
        }
    }

    /** Logs a request this EA cannot decrypt (answered with an HTTP problem: no key to encrypt a response with). */
    static void logUndecryptable(Logger log, String what, PkiException failure) {
        log.warn("{} request not decryptable by this EA ({} {}): {}", what, failure.code().code(), failure.code(), failure.getMessage());
    }

    /** TS 102 941 EnrolmentResponseCode for a refused enrolment. */
    public static int enrolmentResponseCode(Throwable failure) {
        return codeOf(failure).enrolmentResponseCode();
    }

    /** TS 102 941 AuthorizationValidationResponseCode for a refused validation. */
    public static int validationResponseCode(Throwable failure) {
        return codeOf(failure).authorizationValidationResponseCode();
    }
}
