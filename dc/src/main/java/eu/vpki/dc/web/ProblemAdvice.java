package eu.vpki.dc.web;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * The one place where the DC turns errors into HTTP: RFC 7807 problems with the stable error
 * code ({@code code}: number, {@code error}: name). Internal failures keep their detail in the log.
 * A path that names nothing is {@code NOT_FOUND} (404), like an unknown RCA.
 */
@RestControllerAdvice
public class ProblemAdvice extends ResponseEntityExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ProblemAdvice.class);

    static HttpStatus status(ErrorCode code) {
        return switch (code) {
            case UNAUTHENTICATED -> HttpStatus.UNAUTHORIZED;
            case API_DISABLED -> HttpStatus.FORBIDDEN;
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            // a list that does not verify against the trusted RCA: its signature is its credential
            case UNKNOWN_SIGNER, INVALID_SIGNATURE, NOT_TRUSTED -> HttpStatus.FORBIDDEN;
            case STALE_DATA -> HttpStatus.CONFLICT;
            case OVERSIZE_INPUT -> HttpStatus.CONTENT_TOO_LARGE;
            case UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
            case KEY_STORE_FAILURE, INTERNAL_ERROR -> HttpStatus.INTERNAL_SERVER_ERROR;
            default -> HttpStatus.BAD_REQUEST;
        };
    }

    @ExceptionHandler(PkiException.class)
    ResponseEntity<ProblemDetail> pki(PkiException e) {
        HttpStatus status = status(e.code());
        String detail = e.getMessage();
        if (status.is5xxServerError()) {
            LOG.error("request failed: {}", e.toString(), e);
            detail = e.code().summary();
        }
        ProblemDetail problem = problem(status, e.code(), detail);
        HttpHeaders headers = new HttpHeaders();
        if (status == HttpStatus.UNAUTHORIZED) {
            headers.set(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"vpki-dc\"");
        }
        return ResponseEntity.status(status).headers(headers).body(problem);
    }

    @ExceptionHandler(RuntimeException.class)
    ResponseEntity<ProblemDetail> unexpected(RuntimeException e) {
        LOG.error("unexpected failure: {}", e.toString(), e);
        return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR)
                .body(problem(HttpStatus.INTERNAL_SERVER_ERROR, ErrorCode.INTERNAL_ERROR, ErrorCode.INTERNAL_ERROR.summary()));
    }

    /** Spring's own exceptions (unreadable JSON, wrong method, missing parameter...) get the same shape. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
                                                             HttpStatusCode statusCode, WebRequest request) {
        ErrorCode code = ex instanceof HttpMessageNotReadableException ? ErrorCode.MALFORMED_ENCODING
                : statusCode.value() == HttpStatus.NOT_FOUND.value() ? ErrorCode.NOT_FOUND
                : statusCode.is4xxClientError() ? ErrorCode.INVALID_ARGUMENT : ErrorCode.INTERNAL_ERROR;
        ProblemDetail problem = body instanceof ProblemDetail p ? p : ProblemDetail.forStatus(statusCode);
        if (code == ErrorCode.NOT_FOUND) {
            problem.setTitle(code.summary());
        }
        if (ex instanceof HttpMessageNotReadableException) {
            problem.setDetail("request body is not valid JSON of the expected shape");
        }
        problem.setProperty("code", code.code());
        problem.setProperty("error", code.name());
        return super.handleExceptionInternal(ex, problem, headers, statusCode, request);
    }

    static ProblemDetail problem(HttpStatus status, ErrorCode code, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setTitle(code.summary());
        p.setProperty("code", code.code());
        p.setProperty("error", code.name());
        return p;
    }
}
