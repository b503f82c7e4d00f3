package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;

/**
 * A failure of this package: a {@link PkiException} whose {@link #code()} is one of the replication
 * codes of {@link ErrorCode} (71x: {@link ErrorCode#NOT_CONNECTED}, {@link ErrorCode#NO_MAJORITY},
 * {@link ErrorCode#TIMEOUT_OUTCOME_UNKNOWN}, {@link ErrorCode#APPLY_FAILED},
 * {@link ErrorCode#STATE_TRANSFER_FAILED}, {@link ErrorCode#NOT_SERVING}). A service reports any of them
 * as {@link ErrorCode#REPLICATION_UNAVAILABLE} ({@link ErrorCode#reported()}). Its message starts with
 * the code's name, as before the codes were folded into {@link ErrorCode}.
 */
public final class ReplicationException extends PkiException {

    public ReplicationException(ErrorCode code, String message) {
        super(replication(code), message);
    }

    public ReplicationException(ErrorCode code, String message, Throwable cause) {
        super(replication(code), message, cause);
    }

    private static ErrorCode replication(ErrorCode code) {
        if (!code.replication()) {
            throw new IllegalArgumentException(code + " is not a replication code");
        }
        return code;
    }

    @Override
    public String getMessage() {
        return code() + ": " + super.getMessage();
    }

    /** As {@link RuntimeException#toString()}: the class name and the message (logs read it so). */
    @Override
    public String toString() {
        return getClass().getName() + ": " + getMessage();
    }
}
