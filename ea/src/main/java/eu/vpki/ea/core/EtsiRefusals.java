package eu.vpki.ea.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.replication.ReplicationException;

/**
 * The one place where a failure on an EA request path becomes an ETSI response code. Anything that
 * is not a {@link PkiException} is an internal failure (its details stay in the log, never in the
 * response); a replication failure means the EC could not be stored durably, so it is not issued.
 */
public final class EtsiRefusals {
    private EtsiRefusals() {
    }

    /** The error code a failure is reported with. */
    public static ErrorCode codeOf(Throwable failure) {
        if (failure instanceof PkiException pki) {
            return pki.code();
        }
        if (failure instanceof ReplicationException) {
            return ErrorCode.REPLICATION_UNAVAILABLE;
        }
        return ErrorCode.INTERNAL_ERROR;
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
