package eu.vpki.aa.core;

/** A validation round trip that did not produce a response to read; the AA may try another replica. */
public final class EaCallException extends Exception {
    /** Why the call failed; also the {@code reason} tag of the EA call failure counter. */
    public enum Reason {
        /** connection refused or reset, I/O error */
        IO,
        /** connect or request timeout */
        TIMEOUT,
        /** an HTTP status other than 200 */
        HTTP_STATUS,
        /** a 200 answer without the {@code application/x-its-response} content type */
        CONTENT_TYPE,
        /** an answer that does not decrypt, verify or match the request */
        UNREADABLE_RESPONSE;

        public String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Reason reason;

    public EaCallException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public EaCallException(Reason reason, String message) {
        this(reason, message, null);
    }

    public Reason reason() {
        return reason;
    }
}
