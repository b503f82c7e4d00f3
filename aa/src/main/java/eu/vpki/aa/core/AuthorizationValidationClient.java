package eu.vpki.aa.core;

import java.net.URI;

/**
 * Transport of an AuthorizationValidationRequest to one EA access point: POST the body as
 * {@code application/x-its-request}, return the {@code application/x-its-response} body of an HTTP
 * 200 answer. Implementations pool connections and apply timeouts; they are thread-safe.
 */
public interface AuthorizationValidationClient {
    /**
     * @throws EaCallException when the EA did not answer in time, the connection failed, or the
     *                         answer was not an HTTP 200 {@code application/x-its-response}
     */
    byte[] validate(URI accessPoint, byte[] body) throws EaCallException;
}
