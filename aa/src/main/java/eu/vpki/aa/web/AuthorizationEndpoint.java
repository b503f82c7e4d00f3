package eu.vpki.aa.web;

import eu.vpki.aa.core.AuthorizationOutcome;
import eu.vpki.aa.core.AuthorizationService;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.shell.problem.Problems;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import java.io.IOException;
import java.io.InputStream;

/**
 * The AA's access point: {@code POST} of a raw COER AuthorizationRequest as
 * {@code application/x-its-request}; the answer is always HTTP 200 {@code application/x-its-response}
 * with an encrypted AuthorizationResponse (an AT or a response code), except where no such answer can
 * exist: wrong content type (415), body over {@code vpki.aa.max-request-bytes} (413: the service shell's
 * {@code RequestBodyLimitFilter} cuts the body stream off there, before anything buffers it), a body the AA
 * cannot decrypt (400); those are the services' RFC 7807 problems ({@link Problems}), with our error code
 * and no internal detail.
 */
public final class AuthorizationEndpoint {
    public static final MediaType ITS_REQUEST = MediaType.parseMediaType("application/x-its-request");
    public static final MediaType ITS_RESPONSE = MediaType.parseMediaType("application/x-its-response");

    private final AuthorizationService service;

    public AuthorizationEndpoint(AuthorizationService service) {
        this.service = service;
    }

    public ServerResponse authorize(ServerRequest request) throws IOException {
        MediaType type = request.headers().contentType().orElse(null);
        if (type == null || !ITS_REQUEST.equalsTypeAndSubtype(type)) {
            return problem(Problems.of(HttpStatus.UNSUPPORTED_MEDIA_TYPE, ErrorCode.UNEXPECTED_CONTENT,
                    "POST an AuthorizationRequest as application/x-its-request" + (type == null ? "" : ", not " + type)));
        }
        byte[] body;
        try (InputStream in = request.servletRequest().getInputStream()) {
            body = in.readAllBytes();
        }
        AuthorizationOutcome outcome = service.authorize(body);
        if (outcome instanceof AuthorizationOutcome.Answered answered) {
            return ServerResponse.status(HttpStatus.OK).contentType(ITS_RESPONSE).body(answered.response());
        }
        AuthorizationOutcome.Undecryptable undecryptable = (AuthorizationOutcome.Undecryptable) outcome;
        return problem(Problems.of(undecryptable.reason(),
                undecryptable.reason().summary() + ": no key to encrypt an AuthorizationResponse with"));
    }

    private static ServerResponse problem(ProblemDetail problem) {
        return ServerResponse.status(problem.getStatus()).headers(h -> h.addAll(Problems.headers(HttpStatus.valueOf(problem.getStatus()))))
                .contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }
}
