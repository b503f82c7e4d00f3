package eu.vpki.shell.etsi;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.shell.problem.ProblemStatus;
import eu.vpki.shell.problem.Problems;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Locale;

/**
 * One ETSI TS 102 941 access point (Annex D conventions) as a plain servlet: {@code POST} of the raw
 * COER request as {@code application/x-its-request}; the answer is HTTP 200
 * {@code application/x-its-response} with what the {@link Exchange} returns (also an encrypted ETSI
 * refusal). Spring MVC's dispatch (handler mapping, argument resolution, content negotiation, message
 * converters) is not on this path: it cost about a tenth of an AT's CPU on two hops
 * (docs/design-thin-path.md). The servlet filters of the service still run: {@code RequestBodyLimitFilter}
 * answers a body over the path's limit with 413 before anything reads it, and cuts a longer body off
 * while this servlet reads it (the refusal propagates to the filter, which answers it).
 *
 * <p>Where no ETSI response can exist, the answer is the services' RFC 7807 problem ({@link Problems}),
 * logged on one line as {@code ProblemAdvice} logs it: another method than {@code POST} (405, {@code Allow:
 * POST}), another content type (415 {@code UNEXPECTED_CONTENT}), a {@link PkiException} from the exchange
 * (the status its code has, e.g. 400 for a body that cannot be decrypted, 503 for a replica not serving),
 * anything else (500 {@code INTERNAL_ERROR}, logged with its stack trace, no detail to the client).
 */
public final class AccessPointServlet extends HttpServlet {
    public static final String ITS_REQUEST = "application/x-its-request";
    public static final String ITS_RESPONSE = "application/x-its-response";
    private static final Logger log = LoggerFactory.getLogger(AccessPointServlet.class);

    /** What an access point does with one request body: the response body, or a {@link PkiException}. */
    @FunctionalInterface
    public interface Exchange {
        byte[] answer(byte[] request);
    }

    private final String message;
    private final transient Exchange exchange;

    /**
     * @param message  the request this access point takes, for the 415 detail (e.g. {@code "an EnrolmentRequest"})
     * @param exchange what it does with the body
     */
    public AccessPointServlet(String message, Exchange exchange) {
        this.message = message;
        this.exchange = exchange;
    }

    /**
     * The servlet registration of an access point at {@code path} (an exact path; {@code /} is the context
     * root alone, the servlet mapping {@code ""}, so that the access point never becomes the default servlet
     * that every other path falls to), started with the service.
     */
    public static ServletRegistrationBean<AccessPointServlet> registration(String name, String path, String message, Exchange exchange) {
        ServletRegistrationBean<AccessPointServlet> registration = new ServletRegistrationBean<>(new AccessPointServlet(message, exchange),
                path.equals("/") ? "" : path);
        registration.setName(name);
        registration.setLoadOnStartup(1);
        return registration;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!"POST".equals(request.getMethod())) {
            response.setHeader(HttpHeaders.ALLOW, "POST");
            problem(request, response, Problems.of(HttpStatus.METHOD_NOT_ALLOWED, ProblemStatus.codeOf(HttpStatus.METHOD_NOT_ALLOWED),
                    "Request method '" + request.getMethod() + "' is not supported"), null);
            return;
        }
        String type = request.getContentType();
        if (type == null || !isItsRequest(type)) {
            problem(request, response, Problems.of(HttpStatus.UNSUPPORTED_MEDIA_TYPE, ProblemStatus.codeOf(HttpStatus.UNSUPPORTED_MEDIA_TYPE),
                    "POST " + message + " as " + ITS_REQUEST + (type == null ? "" : ", not " + type)), null);
            return;
        }
        byte[] body;
        try (InputStream in = request.getInputStream()) {
            body = in.readAllBytes(); // past the path's limit this throws, and RequestBodyLimitFilter answers 413
        }
        byte[] answer;
        try {
            answer = exchange.answer(body);
        } catch (PkiException e) {
            problem(request, response, Problems.of(e.code(), e.getMessage()), e);
            return;
        } catch (RuntimeException e) {
            problem(request, response, Problems.of(ErrorCode.INTERNAL_ERROR, ErrorCode.INTERNAL_ERROR.summary()), e);
            return;
        }
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(ITS_RESPONSE);
        response.setContentLength(answer.length);
        response.getOutputStream().write(answer);
    }

    /** {@code application/x-its-request}, any case, parameters ignored. */
    static boolean isItsRequest(String contentType) {
        int semicolon = contentType.indexOf(';');
        String bare = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
        return bare.toLowerCase(Locale.ROOT).equals(ITS_REQUEST);
    }

    private static void problem(HttpServletRequest request, HttpServletResponse response, ProblemDetail problem, Exception cause) throws IOException {
        String where = request.getMethod() + " " + request.getRequestURI();
        if (problem.getStatus() == HttpServletResponse.SC_SERVICE_UNAVAILABLE) { // expected while out of service: no stack trace
            log.warn("{} not served: {} {}: {}", where, problem.getStatus(), problem.getProperties().get("error"), problem.getDetail());
        } else if (problem.getStatus() >= 500) {
            log.error("{} failed: {} {}", where, problem.getStatus(), problem.getProperties().get("error"), cause);
        } else {
            log.info("{} refused: {} {}: {}", where, problem.getStatus(), problem.getProperties().get("error"), problem.getDetail());
        }
        try {
            problem.setInstance(URI.create(request.getRequestURI()));
        } catch (IllegalArgumentException notAUri) {
            // the problem goes without an instance
        }
        Problems.write(response, problem);
    }
}
