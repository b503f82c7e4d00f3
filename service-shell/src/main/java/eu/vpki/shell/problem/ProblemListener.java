package eu.vpki.shell.problem;

import eu.vpki.common.error.ErrorCode;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.method.HandlerMethod;

import java.util.Set;

/**
 * Told of each problem {@link ProblemAdvice} answers for a controller method, with the codes it names
 * (its own and those of its invalid fields). The OpenAPI check of undeclared problems
 * ({@link eu.vpki.shell.openapi.UndeclaredProblems}) is one; a service may add its own as beans.
 */
public interface ProblemListener {
    void answered(HttpServletRequest request, HandlerMethod handler, Set<ErrorCode> codes);
}
