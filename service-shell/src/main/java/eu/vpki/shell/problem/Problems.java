package eu.vpki.shell.problem;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.FieldError;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Builds the one problem shape (RFC 7807, {@code application/problem+json}):
 * <pre>
 * {"type":"urn:vpki:error:invalid-key", "title":"public key is not a valid point on its curve", "status":400,
 *  "detail":"...", "instance":"/operator/v1/stations", "code":313, "error":"INVALID_KEY",
 *  "errors":[{"field":"stations[1].publicKey", "code":313, "error":"INVALID_KEY", "detail":"..."}]}
 * </pre>
 * {@code type} and {@code error} name the stable {@link ErrorCode}, {@code code} is its number,
 * {@code title} its summary; {@code errors} appears for invalid input only. A 5xx problem never
 * carries an internal detail (the caller logs it). A 401 carries {@code WWW-Authenticate: Bearer},
 * a 503 {@code Retry-After: 1}.
 */
public final class Problems {
    /** Prefix of every problem {@code type}, followed by the error name in lower case with dashes. */
    public static final String TYPE_PREFIX = "urn:vpki:error:";
    /** Seconds a client should wait before retrying a 503. */
    public static final String RETRY_AFTER_SECONDS = "1";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Problems() {
    }

    /**
     * The problem for {@code code} with the status {@link ProblemStatus#of} gives it. A code is answered as
     * {@link ErrorCode#reported()} (a failure of the replication library as {@code REPLICATION_UNAVAILABLE}).
     */
    public static ProblemDetail of(ErrorCode code, String detail) {
        return of(ProblemStatus.of(code.reported()), code, detail);
    }

    /** The problem for {@code code} with another status (Spring's own errors keep theirs, e.g. 405 or 415). */
    public static ProblemDetail of(HttpStatusCode status, ErrorCode raised, String detail) {
        ErrorCode code = raised.reported();
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, status.is5xxServerError() ? code.summary() : detail);
        p.setType(type(code));
        p.setTitle(code.summary());
        p.setProperty("code", code.code());
        p.setProperty("error", code.name());
        return p;
    }

    /** The problem for invalid input, listing every invalid field. */
    public static ProblemDetail invalid(ErrorCode code, String detail, List<FieldError> errors) {
        ProblemDetail p = of(code, detail);
        p.setProperty("errors", errors.stream().map(Problems::describe).toList());
        return p;
    }

    /** {@code urn:vpki:error:<name>}, e.g. {@code urn:vpki:error:invalid-key}. */
    public static URI type(ErrorCode code) {
        return URI.create(TYPE_PREFIX + code.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }

    /** The answer: the problem, its content type and the headers its status calls for. */
    public static ResponseEntity<ProblemDetail> response(ProblemDetail problem) {
        return ResponseEntity.status(problem.getStatus()).headers(headers(HttpStatus.valueOf(problem.getStatus())))
                .contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }

    /** {@link #response(ProblemDetail)} of {@link #of(ErrorCode, String)}. */
    public static ResponseEntity<ProblemDetail> response(ErrorCode code, String detail) {
        return response(of(code, detail));
    }

    /** Headers a problem of this status carries: {@code WWW-Authenticate} on 401, {@code Retry-After} on 503. */
    public static HttpHeaders headers(HttpStatus status) {
        HttpHeaders headers = new HttpHeaders();
        if (status == HttpStatus.UNAUTHORIZED) {
            headers.set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        } else if (status == HttpStatus.SERVICE_UNAVAILABLE) {
            headers.set(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
        }
        return headers;
    }

    /**
     * Writes a problem straight to a servlet response, for code that runs outside Spring MVC (security
     * and limit filters): the same JSON as a controller's problem.
     */
    public static void write(HttpServletResponse response, ProblemDetail problem) throws IOException {
        response.setStatus(problem.getStatus());
        headers(HttpStatus.valueOf(problem.getStatus())).forEach((name, values) -> values.forEach(v -> response.addHeader(name, v)));
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        byte[] body = json(problem);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** The problem's JSON, as a controller answers it ({@code application/problem+json}), for servers outside Spring MVC. */
    public static byte[] json(ProblemDetail problem) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("type", problem.getType().toString());
        json.put("title", problem.getTitle());
        json.put("status", problem.getStatus());
        json.put("detail", problem.getDetail());
        if (problem.getInstance() != null) {
            json.put("instance", problem.getInstance().toString());
        }
        if (problem.getProperties() != null) {
            json.putAll(problem.getProperties());
        }
        return JSON.writeValueAsBytes(json);
    }

    /** The codes a problem names: its own and those of its invalid fields. */
    public static Set<ErrorCode> codes(ProblemDetail problem) {
        Set<ErrorCode> codes = EnumSet.noneOf(ErrorCode.class);
        Map<String, Object> properties = problem.getProperties() == null ? Map.of() : problem.getProperties();
        if (properties.get("error") instanceof String name) {
            codes.add(ErrorCode.valueOf(name));
        }
        if (properties.get("errors") instanceof List<?> fields) {
            for (Object field : fields) {
                if (field instanceof Map<?, ?> m && m.get("error") instanceof String name) {
                    codes.add(ErrorCode.valueOf(name));
                }
            }
        }
        return codes;
    }

    private static Map<String, Object> describe(FieldError error) {
        return Map.of("field", error.field(), "code", error.code().code(), "error", error.code().name(), "detail", error.detail());
    }
}
