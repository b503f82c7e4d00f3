package eu.vpki.aa.web;

import eu.vpki.aa.core.AuthorizationOutcome;
import eu.vpki.common.error.ErrorCode;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.servlet.function.ServerResponse;

import java.net.URI;

/**
 * The only place the AA chooses an HTTP status other than 200: the few cases where no encrypted
 * AuthorizationResponse can be given, as RFC 7807 problems with our stable error code. Internal
 * details (exception messages) stay out of them.
 */
final class AaProblems {
    private AaProblems() {
    }

    static ServerResponse undecryptable(AuthorizationOutcome.Undecryptable u) {
        return problem(HttpStatus.BAD_REQUEST, "undecryptable", "Request cannot be decrypted",
                u.reason().summary() + ": no key to encrypt an AuthorizationResponse with", u.reason());
    }

    static ServerResponse unsupportedMediaType(MediaType type) {
        return problem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", "Unsupported media type",
                "POST an AuthorizationRequest as application/x-its-request" + (type == null ? "" : ", not " + type), ErrorCode.UNEXPECTED_CONTENT);
    }

    static ServerResponse tooLarge(int max) {
        return problem(HttpStatus.PAYLOAD_TOO_LARGE, "too-large", "Request too large",
                "an AuthorizationRequest is at most " + max + " bytes here", ErrorCode.OVERSIZE_INPUT);
    }

    private static ServerResponse problem(HttpStatus status, String type, String title, String detail, ErrorCode code) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(URI.create("urn:vpki:problem:aa:" + type));
        p.setTitle(title);
        p.setProperty("errorCode", code.code());
        p.setProperty("error", code.name());
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(p);
    }
}
