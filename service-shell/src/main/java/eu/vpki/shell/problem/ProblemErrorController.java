package eu.vpki.shell.problem;

import eu.vpki.common.error.ErrorCode;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * The error page ({@code /error}) as a problem too: what the servlet container or a filter refuses
 * before Spring MVC runs (a malformed request line, a request Spring Security's firewall rejects)
 * gets the same shape as everything else, with the code {@link ProblemStatus#codeOf} gives its
 * status. Replaces Spring Boot's {@code BasicErrorController}.
 */
@Controller
@RequestMapping("${server.error.path:${error.path:/error}}")
public class ProblemErrorController implements ErrorController {

    @RequestMapping
    public ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatusCode code = HttpStatusCode.valueOf(status instanceof Integer s && s >= 400 ? s : 404);
        ErrorCode error = ProblemStatus.codeOf(code);
        Object message = request.getAttribute(RequestDispatcher.ERROR_MESSAGE);
        String detail = message instanceof String m && !m.isBlank() ? m : error.summary();
        return Problems.response(Problems.of(code, error, detail));
    }
}
