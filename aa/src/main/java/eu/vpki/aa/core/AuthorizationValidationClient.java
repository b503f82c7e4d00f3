package eu.vpki.aa.core;

import java.net.URI;
import java.util.concurrent.CompletableFuture;

/**
 * Transport of an AuthorizationValidationRequest to one EA access point: POST the body as
 * {@code application/x-its-request}, complete with the {@code application/x-its-response} body of an HTTP
 * 200 answer. Asynchronous: the AA answers its station when the EA has answered, without holding a thread
 * meanwhile. Implementations pool connections and apply timeouts; they are thread-safe.
 */
public interface AuthorizationValidationClient {
    /**
     * Completes exceptionally with an {@link EaCallException} when the EA did not answer in time, the connection
     * failed, or the answer was not an HTTP 200 {@code application/x-its-response}.
     */
    CompletableFuture<byte[]> validate(URI accessPoint, byte[] body);
}
