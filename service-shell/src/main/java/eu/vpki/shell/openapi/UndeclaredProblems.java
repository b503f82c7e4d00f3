package eu.vpki.shell.openapi;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.shell.problem.ProblemListener;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.AntPathMatcher;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Finds the problems an operation answers that its OpenAPI description does not list, so that the
 * published description cannot lie about an operation's errors. {@link eu.vpki.shell.problem.ProblemAdvice}
 * tells it the codes of every problem it answers for a controller method (the problem's own and its
 * invalid fields'); it compares them with what {@link ApiDocumentation#documented} lists for that
 * method, on the paths the description covers ({@code springdoc.paths-to-match} and
 * {@code paths-to-exclude}, matched as springdoc matches them). Each finding is logged once at WARN,
 * in production too, and kept until {@link #take() taken}: the HTTP tests of the RCA admin API and of
 * the Operator API take them after every test and fail on any.
 */
public final class UndeclaredProblems implements ProblemListener {
    private static final Logger log = LoggerFactory.getLogger(UndeclaredProblems.class);
    private static final AntPathMatcher PATHS = new AntPathMatcher();

    private final ApiDocumentation documentation;
    private final List<String> pathsToMatch;
    private final List<String> pathsToExclude;
    private final Set<String> logged = ConcurrentHashMap.newKeySet();
    private final Queue<String> found = new ConcurrentLinkedQueue<>();

    /** An empty {@code pathsToMatch} covers every path, as in springdoc. */
    public UndeclaredProblems(ApiDocumentation documentation, List<String> pathsToMatch, List<String> pathsToExclude) {
        this.documentation = documentation;
        this.pathsToMatch = List.copyOf(pathsToMatch);
        this.pathsToExclude = List.copyOf(pathsToExclude);
    }

    @Override
    public void answered(HttpServletRequest request, HandlerMethod handler, Set<ErrorCode> codes) {
        String path = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE) instanceof String pattern
                ? pattern
                : request.getRequestURI();
        if (!described(path)) {
            return;
        }
        Set<ErrorCode> documented = documentation.documented(handler, path);
        for (ErrorCode code : codes) {
            if (!documented.contains(code)) {
                String finding = request.getMethod() + " " + path + " (" + handler.getBeanType().getSimpleName() + "."
                        + handler.getMethod().getName() + ") answered " + code.name() + " (" + code.code()
                        + "), which its OpenAPI description does not list: add it to the method's @ProblemResponses";
                found.add(finding);
                if (logged.add(finding)) {
                    log.warn(finding);
                }
            }
        }
    }

    /** The findings since the last call, oldest first; empty when every answered problem was documented. */
    public List<String> take() {
        List<String> taken = new ArrayList<>();
        for (String f = found.poll(); f != null; f = found.poll()) {
            taken.add(f);
        }
        return taken;
    }

    private boolean described(String path) {
        return (pathsToMatch.isEmpty() || pathsToMatch.stream().anyMatch(p -> PATHS.match(p, path)))
                && pathsToExclude.stream().noneMatch(p -> PATHS.match(p, path));
    }
}
