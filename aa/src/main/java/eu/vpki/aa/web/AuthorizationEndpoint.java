package eu.vpki.aa.web;

import eu.vpki.aa.core.AuthorizationOutcome;
import eu.vpki.aa.core.AuthorizationService;
import eu.vpki.common.error.PkiException;
import eu.vpki.shell.etsi.AccessPoint;

import java.util.concurrent.CompletionStage;

/**
 * The AA's access point: {@code POST} of a raw COER AuthorizationRequest as
 * {@code application/x-its-request}, served by the service shell's access point server; the answer is
 * always HTTP 200 {@code application/x-its-response} with an encrypted AuthorizationResponse (an AT or a
 * response code), except where no such answer can exist: wrong content type (415), body over
 * {@code vpki.aa.max-request-bytes} (413, before the body is read), a body the AA cannot decrypt (400); those
 * are the services' RFC 7807 problems, with our error code and no internal detail. Asynchronous: it starts on
 * the event loop that read the request and answers when the EA has answered.
 */
public final class AuthorizationEndpoint implements AccessPoint.Exchange {
    private final AuthorizationService service;

    public AuthorizationEndpoint(AuthorizationService service) {
        this.service = service;
    }

    /**
     * Completes exceptionally with a {@link PkiException} of the reason's code when the request cannot be
     * decrypted (no key to encrypt an answer with).
     */
    @Override
    public CompletionStage<byte[]> answer(byte[] body) {
        return service.authorize(body).thenApply(outcome -> {
            if (outcome instanceof AuthorizationOutcome.Answered answered) {
                return answered.response();
            }
            AuthorizationOutcome.Undecryptable undecryptable = (AuthorizationOutcome.Undecryptable) outcome;
            throw new PkiException(undecryptable.reason(),
                    undecryptable.reason().summary() + ": no key to encrypt an AuthorizationResponse with");
        });
    }
}
