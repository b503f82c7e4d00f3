package eu.vpki.aa.web;

import eu.vpki.aa.core.AuthorizationOutcome;
import eu.vpki.aa.core.AuthorizationService;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import java.io.IOException;
import java.io.InputStream;

/**
 * The AA's access point: {@code POST} of a raw COER AuthorizationRequest as
 * {@code application/x-its-request}; the answer is always HTTP 200 {@code application/x-its-response}
 * with an encrypted AuthorizationResponse (an AT or a response code), except where no such answer can
 * exist: wrong content type (415), body over {@code vpki.aa.max-request-bytes} (413), a body the AA
 * cannot decrypt (400); those are RFC 7807 problems ({@link AaProblems}).
 */
public final class AuthorizationEndpoint {
    public static final MediaType ITS_REQUEST = MediaType.parseMediaType("application/x-its-request");
    public static final MediaType ITS_RESPONSE = MediaType.parseMediaType("application/x-its-response");

    private final AuthorizationService service;
    private final int maxRequestBytes;

    public AuthorizationEndpoint(AuthorizationService service, int maxRequestBytes) {
        this.service = service;
        this.maxRequestBytes = maxRequestBytes;
    }

    public ServerResponse authorize(ServerRequest request) throws IOException {
        MediaType type = request.headers().contentType().orElse(null);
        if (type == null || !ITS_REQUEST.equalsTypeAndSubtype(type)) {
            return AaProblems.unsupportedMediaType(type);
        }
        if (request.headers().contentLength().orElse(0) > maxRequestBytes) {
            return AaProblems.tooLarge(maxRequestBytes);
        }
        byte[] body;
        try (InputStream in = request.servletRequest().getInputStream()) {
            body = in.readNBytes(maxRequestBytes + 1);
        }
        if (body.length > maxRequestBytes) {
            return AaProblems.tooLarge(maxRequestBytes);
        }
        AuthorizationOutcome outcome = service.authorize(body);
        if (outcome instanceof AuthorizationOutcome.Answered answered) {
            return ServerResponse.status(HttpStatus.OK).contentType(ITS_RESPONSE).body(answered.response());
        }
        return AaProblems.undecryptable((AuthorizationOutcome.Undecryptable) outcome);
    }
}
