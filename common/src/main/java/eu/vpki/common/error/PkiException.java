package eu.vpki.common.error;

/**
 * The one error type of the PKI. Carries a stable {@link ErrorCode} and a human-readable detail;
 * it becomes an ETSI response code in one place ({@link EtsiRefusal}) and an RFC 7807 problem in one
 * place (the service shell's {@code ProblemStatus}). The replication library's failures are
 * {@code ReplicationException}s, a subclass with the replication codes (71x).
 * Nothing else may escape the ETSI core: every library exception is wrapped into this.
 */
public class PkiException extends RuntimeException {
    private final ErrorCode code;

    public PkiException(ErrorCode code, String detail) {
        super(detail);
        this.code = code;
    }

    public PkiException(ErrorCode code, String detail, Throwable cause) {
        super(detail, cause);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }

    @Override
    public String toString() {
        return "PkiException[" + code + " (" + code.code() + "): " + getMessage() + "]";
    }
}
