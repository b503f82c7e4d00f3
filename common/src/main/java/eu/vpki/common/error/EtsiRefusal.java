package eu.vpki.common.error;

import org.slf4j.Logger;

/**
 * The one place where a failure on an ETSI request path (the EA's enrolment and authorization
 * validation, the AA's authorization) becomes the TS 102 941 response code it is answered with, and
 * where that refusal is logged. Our errors map through {@link ErrorCode} ({@link ErrorCode#reported()}:
 * a replication failure is {@link ErrorCode#REPLICATION_UNAVAILABLE}), an EA's refusal of an
 * authorization validation through {@link EtsiCodes.Authorization#fromValidationCode(int)}, anything
 * that is not a {@link PkiException} is {@link ErrorCode#INTERNAL_ERROR} (its details stay in the log,
 * never in the response).
 *
 * @param path         the request path the refusal answers
 * @param responseCode the response code of {@code path}'s enumeration (never ok)
 * @param reason       our error code, for the log, the metrics and the audit record
 * @param detail       the internal reason (identifiers and field names, never request bytes or keys)
 * @param failure      what failed, or null (an EA's refusal)
 */
public record EtsiRefusal(Path path, int responseCode, ErrorCode reason, String detail, Throwable failure) {

    /** The three ETSI request paths, each with its response-code enumeration. */
    public enum Path {
        ENROLMENT("enrolment"), AUTHORIZATION("authorization"), AUTHORIZATION_VALIDATION("authorization validation");

        private final String description;

        Path(String description) {
            this.description = description;
        }

        /** The value of this path's response-code enumeration for {@code code}. */
        public int responseCode(ErrorCode code) {
            return switch (this) {
                case ENROLMENT -> code.enrolmentResponseCode();
                case AUTHORIZATION -> code.authorizationResponseCode();
                case AUTHORIZATION_VALIDATION -> code.authorizationValidationResponseCode();
            };
        }

        /** The ASN.1 name of a value of this path's response-code enumeration. */
        public String responseName(int responseCode) {
            return switch (this) {
                case ENROLMENT -> EtsiCodes.enrolmentName(responseCode);
                case AUTHORIZATION -> EtsiCodes.authorizationName(responseCode);
                case AUTHORIZATION_VALIDATION -> EtsiCodes.validationName(responseCode);
            };
        }

        /** As the log names it, e.g. "authorization validation". */
        public String description() {
            return description;
        }
    }

    public EtsiRefusal {
        if (responseCode == 0) {
            throw new IllegalArgumentException("a refusal cannot carry ok");
        }
    }

    /** The error code a failure is reported with. */
    public static ErrorCode codeOf(Throwable failure) {
        return failure instanceof PkiException pki ? pki.code().reported() : ErrorCode.INTERNAL_ERROR;
    }

    /** The refusal of a request on {@code path} that failed with {@code failure}. */
    public static EtsiRefusal of(Path path, Throwable failure) {
        ErrorCode code = codeOf(failure);
        String detail = failure instanceof PkiException ? failure.getMessage() : String.valueOf(failure);
        return new EtsiRefusal(path, path.responseCode(code), code, detail, failure);
    }

    /** An enrolment refused because of {@code failure}. */
    public static EtsiRefusal enrolment(Throwable failure) {
        return of(Path.ENROLMENT, failure);
    }

    /** An authorization refused because of {@code failure}. */
    public static EtsiRefusal authorization(Throwable failure) {
        return of(Path.AUTHORIZATION, failure);
    }

    /** An authorization validation refused because of {@code failure}. */
    public static EtsiRefusal validation(Throwable failure) {
        return of(Path.AUTHORIZATION_VALIDATION, failure);
    }

    /** An authorization refused because the EA answered with this AuthorizationValidationResponseCode (not ok). */
    public static EtsiRefusal eaRefused(int validationCode) {
        return new EtsiRefusal(Path.AUTHORIZATION, EtsiCodes.Authorization.fromValidationCode(validationCode), ErrorCode.EA_REFUSED,
                "EA refused with AuthorizationValidationResponseCode " + validationCode, null);
    }

    /** The ASN.1 name of {@link #responseCode()}, e.g. {@code unknownits}. */
    public String responseName() {
        return path.responseName(responseCode);
    }

    /** Logs the refusal with the response code the requester gets: {@link #log(Logger, String)} of {@link #responseName()}. */
    public void log(Logger log) {
        log(log, responseName());
    }

    /**
     * Logs the refusal so that an operator can see why a request was refused: what the requester is
     * answered with ({@code answeredWith}: the response code's name, or another answer), our error code
     * and the reason. INFO for a refused request, WARN when this side could not serve it
     * ({@link ErrorCode#serverSide()}), ERROR with the stack trace for an internal failure.
     */
    public void log(Logger log, String answeredWith) {
        String what = path.description();
        if (reason == ErrorCode.INTERNAL_ERROR) {
            log.error("{} refused with {} (internal failure)", what, answeredWith, failure);
        } else if (reason.serverSide()) {
            log.warn("{} refused with {} ({} {}): {}", what, answeredWith, reason.code(), reason, detail);
        } else {
            log.info("{} refused with {} ({} {}): {}", what, answeredWith, reason.code(), reason, detail);
        }
    }

    /** Logs a request this authority cannot decrypt (answered with an HTTP problem: no key to encrypt a response with). */
    public static void logUndecryptable(Logger log, Path path, PkiException failure) {
        log.warn("{} request not decryptable by this EA ({} {}): {}", path.description(), failure.code().code(), failure.code(),
                failure.getMessage());
    }
}
