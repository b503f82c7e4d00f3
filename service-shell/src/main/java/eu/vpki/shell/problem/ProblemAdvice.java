package eu.vpki.shell.problem;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.FieldError;
import eu.vpki.common.error.InvalidInputException;
import eu.vpki.common.error.PkiException;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;

import java.util.List;
import java.util.Set;

/**
 * The one place where what escapes a controller of any service becomes HTTP: our
 * {@link PkiException} (invalid input with its fields), Spring MVC's own exceptions (unknown path,
 * wrong method or content type, unreadable JSON) and anything unexpected, each as the problem
 * {@link Problems} builds. Client errors are logged on one line at INFO, server errors with their
 * stack trace at ERROR; the client never sees an internal detail. Each {@link ProblemListener} is told
 * of the codes a problem answered for a controller method names.
 */
@RestControllerAdvice
public class ProblemAdvice extends ResponseEntityExceptionHandler {
    private static final Logger log = LoggerFactory.getLogger(ProblemAdvice.class);

    private final List<ProblemListener> listeners;

    public ProblemAdvice(List<ProblemListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    @ExceptionHandler(InvalidInputException.class)
    ResponseEntity<ProblemDetail> invalid(InvalidInputException e, HttpServletRequest request) {
        return answer(request, Problems.invalid(e.code(), e.getMessage(), e.errors()), e);
    }

    @ExceptionHandler(PkiException.class)
    ResponseEntity<ProblemDetail> pki(PkiException e, HttpServletRequest request) {
        return answer(request, Problems.of(e.code(), e.getMessage()), e);
    }

    @ExceptionHandler(RuntimeException.class)
    ResponseEntity<ProblemDetail> unexpected(RuntimeException e, HttpServletRequest request) {
        return answer(request, Problems.of(ErrorCode.INTERNAL_ERROR, ErrorCode.INTERNAL_ERROR.summary()), e);
    }

    /** Spring MVC's own exceptions: their status stays, with our code, title and type. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
                                                             HttpStatusCode status, WebRequest request) {
        ProblemDetail problem;
        PkiException inBody = ex instanceof HttpMessageNotReadableException ? pkiCause(ex) : null;
        if (inBody != null) {
            // the body stream itself refused (e.g. OVERSIZE_INPUT past the request body limit), wrapped by a converter
            problem = Problems.of(inBody.code(), inBody.getMessage());
            status = HttpStatusCode.valueOf(problem.getStatus());
        } else if (ex instanceof HttpMessageNotReadableException unreadable) {
            String field = field(unreadable);
            problem = Problems.invalid(ErrorCode.INVALID_ARGUMENT, field + ": not valid JSON for this field",
                    List.of(new FieldError(field, ErrorCode.INVALID_ARGUMENT, "not valid JSON for this field")));
        } else {
            String detail = body instanceof ProblemDetail spring && spring.getDetail() != null ? spring.getDetail() : ex.getMessage();
            problem = Problems.of(status, ProblemStatus.codeOf(status), detail);
        }
        HttpServletRequest servlet = request instanceof ServletWebRequest s ? s.getRequest() : null;
        ResponseEntity<ProblemDetail> answer = answer(servlet, problem, ex);
        HttpHeaders merged = new HttpHeaders();
        merged.addAll(headers);
        merged.addAll(answer.getHeaders());
        return ResponseEntity.status(status).headers(merged).body(problem);
    }

    private ResponseEntity<ProblemDetail> answer(HttpServletRequest request, ProblemDetail problem, Exception cause) {
        String where = request == null ? "?" : request.getMethod() + " " + request.getRequestURI();
        if (problem.getStatus() >= 500) {
            log.error("{} failed: {} {}", where, problem.getStatus(), problem.getProperties().get("error"), cause);
        } else {
            log.info("{} refused: {} {}: {}", where, problem.getStatus(), problem.getProperties().get("error"), problem.getDetail());
        }
        // set by the handler mapping once a controller method matched: absent for 404, 405 and 415 before a match
        if (request != null && !listeners.isEmpty()
                && request.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE) instanceof HandlerMethod handler) {
            Set<ErrorCode> codes = Problems.codes(problem);
            listeners.forEach(l -> l.answered(request, handler, codes));
        }
        return Problems.response(problem);
    }

    private static PkiException pkiCause(Throwable e) {
        Throwable c = e.getCause();
        for (int depth = 0; c != null && depth < 16; depth++, c = c.getCause()) {
            if (c instanceof PkiException pki) {
                return pki;
            }
        }
        return null;
    }

    /** The JSON path of the first field Jackson could not read, e.g. {@code stations[0].permissions[0].psid}. */
    private static String field(HttpMessageNotReadableException e) {
        if (!(e.getCause() instanceof JacksonException jackson) || jackson.getPath().isEmpty()) {
            return "body";
        }
        StringBuilder out = new StringBuilder();
        for (JacksonException.Reference r : jackson.getPath()) {
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
}
