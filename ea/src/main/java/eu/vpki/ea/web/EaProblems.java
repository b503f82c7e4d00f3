package eu.vpki.ea.web;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.ea.core.UndecryptableRequestException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import java.net.URI;

/**
 * The one place where what escapes the EA core becomes HTTP. Everything after decryption is an
 * encrypted ETSI response built by the core (HTTP 200); only requests the EA cannot decrypt (no key
 * to encrypt an answer with) and oversize bodies get an RFC 7807 problem with the stable error code.
 */
@RestControllerAdvice
public class EaProblems {
    private static final Logger log = LoggerFactory.getLogger(EaProblems.class);

    @ExceptionHandler(UndecryptableRequestException.class)
    ResponseEntity<ProblemDetail> undecryptable(UndecryptableRequestException e) {
        return problem(HttpStatus.BAD_REQUEST, e.code(), "the request cannot be decrypted by this EA, so no ETSI response can be encrypted");
    }

    @ExceptionHandler(PkiException.class)
    ResponseEntity<ProblemDetail> other(PkiException e) {
        if (e.code() == ErrorCode.OVERSIZE_INPUT) {
            return problem(HttpStatus.CONTENT_TOO_LARGE, e.code(), e.getMessage());
        }
        log.error("unexpected failure outside an ETSI response", e);
        return problem(HttpStatus.INTERNAL_SERVER_ERROR, ErrorCode.INTERNAL_ERROR, ErrorCode.INTERNAL_ERROR.summary());
    }

    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, ErrorCode code, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(URI.create("urn:vpki:error:" + code.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')));
        p.setTitle(code.summary());
        p.setProperty("code", code.code());
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(p);
    }
}
