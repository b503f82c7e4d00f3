package eu.vpki.shell.problem;

import eu.vpki.common.error.ErrorCode;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;

/**
 * The HTTP status of each {@link ErrorCode} on a REST answer, for every service: the only place a
 * status is chosen for one of our errors. Codes not listed are the client's fault (400).
 */
public final class ProblemStatus {
    private ProblemStatus() {
    }

    /** The status a problem with this code is answered with. */
    public static HttpStatus of(ErrorCode code) {
        return switch (code) {
            case UNAUTHENTICATED -> HttpStatus.UNAUTHORIZED;
            // a list or request whose signature does not verify against a trusted key: its signature is its credential
            case API_DISABLED, TLS_REQUIRED, UNKNOWN_SIGNER, INVALID_SIGNATURE, NOT_TRUSTED -> HttpStatus.FORBIDDEN;
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case DUPLICATE_ID, INVALID_STATE_TRANSITION, STALE_DATA -> HttpStatus.CONFLICT;
            case OVERSIZE_INPUT -> HttpStatus.CONTENT_TOO_LARGE;
            case TOO_MANY_ATTEMPTS -> HttpStatus.TOO_MANY_REQUESTS;
            case VERSION_NOT_YET_APPLIED, REPLICATION_UNAVAILABLE, UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
            // the replication library's own codes (the services report them as REPLICATION_UNAVAILABLE)
            case NOT_CONNECTED, NO_MAJORITY, TIMEOUT_OUTCOME_UNKNOWN, APPLY_FAILED, STATE_TRANSFER_FAILED, NOT_SERVING ->
                HttpStatus.SERVICE_UNAVAILABLE;
            // the replica's Redis is at its memory limit: not the client's fault, and not over in a second
            case STORAGE_FULL -> HttpStatus.INSUFFICIENT_STORAGE;
            case INTERNAL_ERROR, KEY_STORE_FAILURE -> HttpStatus.INTERNAL_SERVER_ERROR;
            default -> HttpStatus.BAD_REQUEST;
        };
    }

    /**
     * The code of an error Spring MVC or the servlet container raised before our code ran (unknown
     * path, wrong method, wrong content type, unreadable body): its status stays, the code says which
     * kind it was.
     */
    public static ErrorCode codeOf(HttpStatusCode status) {
        return switch (status.value()) {
            case 401 -> ErrorCode.UNAUTHENTICATED;
            case 404 -> ErrorCode.NOT_FOUND;
            case 413 -> ErrorCode.OVERSIZE_INPUT;
            case 429 -> ErrorCode.TOO_MANY_ATTEMPTS;
            case 406, 415 -> ErrorCode.UNEXPECTED_CONTENT;
            case 503 -> ErrorCode.UNAVAILABLE;
            default -> status.is4xxClientError() ? ErrorCode.INVALID_ARGUMENT : ErrorCode.INTERNAL_ERROR;
        };
    }
}
