package eu.vpki.shell.etsi;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.shell.problem.ProblemStatus;
import eu.vpki.shell.problem.Problems;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.ServletContext;
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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

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
 *
 * <p>The access points are not observed as {@code http.server.requests} ({@link #servesRequest},
 * {@code AccessPointAutoConfiguration}): the observation's timers, long-task timer and tags cost more than
 * the answer's own handling (docs/design-thin-path.md). Each access point times its requests itself
 * instead: {@code vpki.access-point.requests} (timer, tags {@code access-point} = the registration's name,
 * {@code status} = the HTTP status answered, or {@code unanswered} when the body could not be read: the body
 * limit's 413 or a broken connection), from the servlet's entry to its last byte written.
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

    /** The servlet context attribute that names the access point servlets of the context (a {@code Set<String>}). */
    static final String NAMES = AccessPointServlet.class.getName() + ".names";

    private static final int UNANSWERED = -1;

    private final String name;
    private final String message;
    private final transient Exchange exchange;
    private final transient MeterRegistry registry;
    private final transient Timer answered;
    private final transient Map<Integer, Timer> problems = new ConcurrentHashMap<>();

    /**
     * @param name     the access point's name, its timer's {@code access-point} tag
     * @param message  the request this access point takes, for the 415 detail (e.g. {@code "an EnrolmentRequest"})
     * @param exchange what it does with the body
     * @param registry where its timer goes
     */
    public AccessPointServlet(String name, String message, Exchange exchange, MeterRegistry registry) {
        this.name = name;
        this.message = message;
        this.exchange = exchange;
        this.registry = registry;
        this.answered = timer(HttpServletResponse.SC_OK);
    }

    private Timer timer(int status) {
        return Timer.builder("vpki.access-point.requests").description("ETSI access point requests, by HTTP status answered")
                .tag("access-point", name).tag("status", status == UNANSWERED ? "unanswered" : Integer.toString(status))
                .register(registry);
    }

    /**
     * The servlet registration of an access point at {@code path} (an exact path; {@code /} is the context
     * root alone, the servlet mapping {@code ""}, so that the access point never becomes the default servlet
     * that every other path falls to), started with the service.
     */
    public static ServletRegistrationBean<AccessPointServlet> registration(String name, String path, String message, Exchange exchange,
                                                                           MeterRegistry registry) {
        ServletRegistrationBean<AccessPointServlet> registration = new ServletRegistrationBean<>(
                new AccessPointServlet(name, message, exchange, registry),
                path.equals("/") ? "" : path);
        registration.setName(name);
        registration.setLoadOnStartup(1);
        return registration;
    }

    @Override
    public void init() {
        ServletContext context = getServletContext();
        synchronized (context) {
            @SuppressWarnings("unchecked")
            Set<String> names = (Set<String>) context.getAttribute(NAMES);
            if (names == null) {
                names = ConcurrentHashMap.newKeySet();
                context.setAttribute(NAMES, names);
            }
            names.add(getServletName());
        }
    }

    /**
     * Whether {@code request} goes to an access point servlet (the container mapped it before the filters
     * run, so a filter can ask). Needs the servlet initialised: {@link #registration} loads it on start-up.
     */
    public static boolean servesRequest(HttpServletRequest request) {
        return request.getServletContext().getAttribute(NAMES) instanceof Set<?> names
                && names.contains(request.getHttpServletMapping().getServletName());
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        long start = System.nanoTime();
        int status = UNANSWERED; // unless answered here: the body could not be read (the body limit's 413, a broken connection)
        try {
            status = answer(request, response);
        } finally {
            long nanos = System.nanoTime() - start;
            (status == HttpServletResponse.SC_OK ? answered : problems.computeIfAbsent(status, this::timer))
                    .record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    /** Answers {@code request}; the HTTP status answered. */
    private int answer(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!"POST".equals(request.getMethod())) {
            response.setHeader(HttpHeaders.ALLOW, "POST");
            return problem(request, response, Problems.of(HttpStatus.METHOD_NOT_ALLOWED, ProblemStatus.codeOf(HttpStatus.METHOD_NOT_ALLOWED),
                    "Request method '" + request.getMethod() + "' is not supported"), null);
        }
        String type = request.getContentType();
        if (type == null || !isItsRequest(type)) {
            return problem(request, response, Problems.of(HttpStatus.UNSUPPORTED_MEDIA_TYPE, ProblemStatus.codeOf(HttpStatus.UNSUPPORTED_MEDIA_TYPE),
                    "POST " + message + " as " + ITS_REQUEST + (type == null ? "" : ", not " + type)), null);
        }
        byte[] body;
        try (InputStream in = request.getInputStream()) {
            body = in.readAllBytes(); // past the path's limit this throws, and RequestBodyLimitFilter answers 413
        }
        byte[] answer;
        try {
            answer = exchange.answer(body);
        } catch (PkiException e) {
            return problem(request, response, Problems.of(e.code(), e.getMessage()), e);
        } catch (RuntimeException e) {
            return problem(request, response, Problems.of(ErrorCode.INTERNAL_ERROR, ErrorCode.INTERNAL_ERROR.summary()), e);
        }
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(ITS_RESPONSE);
        response.setContentLength(answer.length);
        response.getOutputStream().write(answer);
        return HttpServletResponse.SC_OK;
    }

    /** {@code application/x-its-request}, any case, parameters ignored. */
    static boolean isItsRequest(String contentType) {
        int semicolon = contentType.indexOf(';');
        String bare = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
        return bare.toLowerCase(Locale.ROOT).equals(ITS_REQUEST);
    }

    /** Answers {@code problem}; its status. */
    private static int problem(HttpServletRequest request, HttpServletResponse response, ProblemDetail problem, Exception cause) throws IOException {
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
        return problem.getStatus();
    }
}
