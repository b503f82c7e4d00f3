package eu.vpki.aa.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.error.PkiException;
import org.slf4j.Logger;

/**
 * Why a readable request gets no AT, as the AuthorizationResponseCode it is answered with and our
 * internal reason. The one place where the AA turns failures into TS 102 941 response codes:
 * our errors through {@link ErrorCode#authorizationResponseCode()}, an EA refusal through
 * {@link EtsiCodes.Authorization#fromValidationCode(int)}, anything unexpected as
 * {@link ErrorCode#INTERNAL_ERROR}.
 */
public record Refusal(int responseCode, ErrorCode reason, String detail) {
    public Refusal {
        if (responseCode == EtsiCodes.Authorization.OK) {
            throw new IllegalArgumentException("a refusal cannot carry ok");
        }
    }

    public static Refusal of(PkiException e) {
        return new Refusal(e.code().authorizationResponseCode(), e.code(), e.getMessage());
    }

    /** The EA answered with this AuthorizationValidationResponseCode (not ok). */
    public static Refusal eaRefused(int validationCode) {
        return new Refusal(EtsiCodes.Authorization.fromValidationCode(validationCode), ErrorCode.EA_REFUSED,
                "EA refused with AuthorizationValidationResponseCode " + validationCode);
    }

    /**
     * Logs why a request was refused, with the response code the station gets (identifiers and field
     * names, never request bytes or keys): INFO, or WARN when this side failed ({@link ErrorCode#serverSide()}).
     * Internal failures are logged with their stack trace where they are caught.
     */
    void log(Logger log) {
        if (reason == ErrorCode.INTERNAL_ERROR) {
            return;
        }
        String etsi = EtsiCodes.authorizationName(responseCode);
        if (reason.serverSide()) {
            log.warn("authorization refused with {} ({} {}): {}", etsi, reason.code(), reason, detail);
        } else {
            log.info("authorization refused with {} ({} {}): {}", etsi, reason.code(), reason, detail);
        }
    }

    public static Refusal internal(Exception e) {
        return new Refusal(ErrorCode.INTERNAL_ERROR.authorizationResponseCode(), ErrorCode.INTERNAL_ERROR, String.valueOf(e));
    }
}
