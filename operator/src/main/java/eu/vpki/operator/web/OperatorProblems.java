package eu.vpki.operator.web;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.operator.core.FieldError;
import eu.vpki.operator.core.InvalidInputException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import tools.jackson.core.JacksonException;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one place where Operator errors become RFC 7807 problems: {@code type} names the stable error
 * code, {@code code} carries its number, {@code errors} lists each invalid field with its JSON path.
 * Internal details never reach the client.
 */
@RestControllerAdvice
public class OperatorProblems {
    private static final Logger log = LoggerFactory.getLogger(OperatorProblems.class);
    static final String RETRY_AFTER_SECONDS = "1";

    /** HTTP status of each error code on the REST API. */
    static HttpStatus statusOf(ErrorCode code) {
        return switch (code) {
            case UNAUTHENTICATED -> HttpStatus.UNAUTHORIZED;
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case DUPLICATE_ID, INVALID_STATE_TRANSITION -> HttpStatus.CONFLICT;
            case OVERSIZE_INPUT -> HttpStatus.CONTENT_TOO_LARGE;
            case VERSION_NOT_YET_APPLIED, REPLICATION_UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
            case INTERNAL_ERROR, KEY_STORE_FAILURE -> HttpStatus.INTERNAL_SERVER_ERROR;
            default -> HttpStatus.BAD_REQUEST;
        };
    }

    @ExceptionHandler(InvalidInputException.class)
    ResponseEntity<ProblemDetail> invalid(InvalidInputException e) {
        List<Map<String, Object>> errors = e.errors().stream().map(OperatorProblems::describe).toList();
        return problem(e.code(), e.getMessage(), Map.of("errors", errors));
    }

    @ExceptionHandler(PkiException.class)
    ResponseEntity<ProblemDetail> pki(PkiException e) {
        if (statusOf(e.code()) == HttpStatus.INTERNAL_SERVER_ERROR) {
            log.error("internal failure", e);
            return problem(ErrorCode.INTERNAL_ERROR, ErrorCode.INTERNAL_ERROR.summary(), Map.of());
        }
        return problem(e.code(), e.getMessage(), Map.of());
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ProblemDetail> unreadable(HttpMessageNotReadableException e) {
        String field = "body";
        if (e.getCause() instanceof JacksonException jackson && !jackson.getPath().isEmpty()) {
            field = path(jackson.getPath());
        }
        FieldError error = new FieldError(field, ErrorCode.INVALID_ARGUMENT, "not valid JSON for this field");
        return problem(ErrorCode.INVALID_ARGUMENT, field + ": not valid JSON for this field", Map.of("errors", List.of(describe(error))));
    }

    private static String path(List<JacksonException.Reference> references) {
        StringBuilder out = new StringBuilder();
        for (JacksonException.Reference r : references) {
            if (r.getPropertyName() != null) {
                if (!out.isEmpty()) {
                    out.append('.');
                }
                out.append(r.getPropertyName());
            } else if (r.getIndex() >= 0) {
                out.append('[').append(r.getIndex()).append(']');
            }
        }
        return out.isEmpty() ? "body" : out.toString();
    }

    private static Map<String, Object> describe(FieldError error) {
        return Map.of("field", error.field(), "code", error.code().code(), "error", error.code().name(), "detail", error.detail());
    }

    private static ResponseEntity<ProblemDetail> problem(ErrorCode code, String detail, Map<String, Object> properties) {
        HttpStatus status = statusOf(code);
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(URI.create("urn:vpki:error:" + code.name().toLowerCase(Locale.ROOT).replace('_', '-')));
        p.setTitle(code.summary());
        p.setProperty("code", code.code());
        properties.forEach(p::setProperty);
        ResponseEntity.BodyBuilder response = ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (code == ErrorCode.VERSION_NOT_YET_APPLIED || code == ErrorCode.REPLICATION_UNAVAILABLE) {
            response.header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
        }
        if (code == ErrorCode.UNAUTHENTICATED) {
            response.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        }
        return response.body(p);
    }
}
