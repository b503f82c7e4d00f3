package eu.vpki.shell.limits;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.shell.problem.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.List;

/**
 * The first filter of every service: a request whose {@code Content-Length} exceeds the limit of its
 * path is answered 413 {@code OVERSIZE_INPUT} at once, before authentication and before a byte of the
 * body is read; every other request gets a body stream that refuses to go past the limit
 * ({@link BoundedBodyRequest}), so a chunked body, or one whose length header lies, is cut off after
 * the limit, whoever reads it (a message converter, Jackson, a functional endpoint). A 413 closes the
 * connection ({@code Connection: close}), so the container does not drain a huge body either. Each
 * refusal is logged on one INFO line.
 */
public final class RequestBodyLimitFilter extends OncePerRequestFilter {
    private static final Logger log = LoggerFactory.getLogger(RequestBodyLimitFilter.class);

    private final RequestBodyLimits limits;

    public RequestBodyLimitFilter(List<RequestBodyLimit> limits, long defaultMaxBytes) {
        this.limits = new RequestBodyLimits(limits, defaultMaxBytes);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        RequestBodyLimit limit = limits.limitOf(request.getRequestURI().substring(request.getContextPath().length()));
        long declared = request.getContentLengthLong();
        if (declared > limit.maxBytes()) {
            refuse(request, response, declared + " bytes declared, at most " + limit.maxBytes() + " (" + limit.name() + ")");
            return;
        }
        BoundedBodyRequest bounded = new BoundedBodyRequest(request, response, limit.maxBytes(), limit.name());
        try {
            chain.doFilter(bounded, response);
        } catch (IOException | ServletException | RuntimeException e) {
            // a reader that let the refusal escape (nothing answered it yet): answer it here
            if (!bounded.exceeded() || response.isCommitted()) {
                throw e;
            }
            response.resetBuffer();
            refuse(request, response, bounded.oversize().getMessage());
        }
    }

    private static void refuse(HttpServletRequest request, HttpServletResponse response, String detail) throws IOException {
        log.info("{} {} refused: 413 {}: {}", request.getMethod(), request.getRequestURI(), ErrorCode.OVERSIZE_INPUT, detail);
        response.setHeader(HttpHeaders.CONNECTION, "close");
        Problems.write(response, Problems.of(ErrorCode.OVERSIZE_INPUT, detail));
    }
}
