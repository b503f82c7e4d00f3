package eu.vpki.shell.etsi;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * One ETSI TS 102 941 access point (Annex D conventions) of a service: {@code POST} of the raw COER request as
 * {@code application/x-its-request} to {@link #path}; the answer is HTTP 200 {@code application/x-its-response}
 * with what the {@link Exchange} gives (also an encrypted ETSI refusal). Declared as a bean by the EA and the AA;
 * the {@link AccessPointServer} serves every such bean on the service's public port.
 *
 * <p>Where no ETSI response can exist the server answers the services' RFC 7807 problem: an exchange that
 * fails with a {@code PkiException} answers the status of its code (400 for a body that cannot be decrypted,
 * 503 for a replica out of service), any other failure 500 without detail.
 *
 * @param name     the access point's name: its timer's {@code access-point} tag, and in the log
 * @param path     the exact path (e.g. {@code /aa/authorization})
 * @param message  the request it takes, for the 415 detail (e.g. {@code "an AuthorizationRequest"})
 * @param exchange what it does with a request body
 * @param mayBlock whether the exchange may wait (for replication, a lock, a remote call made blocking): it then runs
 *                 on the server's worker threads; otherwise on the event loop that read the request, which it must
 *                 never hold up for long (docs/design-access-point-server.md)
 */
public record AccessPoint(String name, String path, String message, Exchange exchange, boolean mayBlock) {
    public static final String ITS_REQUEST = "application/x-its-request";
    public static final String ITS_RESPONSE = "application/x-its-response";

    /** What an access point does with one request body: the response body, or a failure (a {@code PkiException} to answer as a problem). */
    @FunctionalInterface
    public interface Exchange {
        /** May also throw instead of completing exceptionally; the server answers both alike. */
        CompletionStage<byte[]> answer(byte[] request);
    }

    public AccessPoint {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(exchange, "exchange");
        Objects.requireNonNull(message, "message");
        if (!path.startsWith("/") || path.contains("//") || path.contains("?")) {
            throw new IllegalArgumentException("an access point path is an absolute path without query: " + path);
        }
    }

    /** Work that answers from the CPU and memory alone (or waits at most briefly): it runs on the event loop. */
    public static AccessPoint onEventLoop(String name, String path, String message, Function<byte[], byte[]> work) {
        return new AccessPoint(name, path, message, body -> CompletableFuture.completedFuture(work.apply(body)), false);
    }

    /** Work that may wait (e.g. for its replicated command): it runs on the server's worker threads. */
    public static AccessPoint blocking(String name, String path, String message, Function<byte[], byte[]> work) {
        return new AccessPoint(name, path, message, body -> CompletableFuture.completedFuture(work.apply(body)), true);
    }

    /** Work that starts on the event loop and completes later, without holding a thread (e.g. an asynchronous call). */
    public static AccessPoint asynchronous(String name, String path, String message, Exchange exchange) {
        return new AccessPoint(name, path, message, exchange, false);
    }

    /**
     * Work that starts on the event loop and completes later, started on {@code workers} instead when
     * {@code offload} is set: for an authority whose key operations may wait on a device (a PKCS#11
     * token or HSM, issue #36), so that no decryption or signature runs on an event loop. A full pool
     * refuses (503), as for {@link #blocking}.
     */
    public static AccessPoint asynchronous(String name, String path, String message, Exchange exchange, boolean offload, Executor workers) {
        if (!offload) {
            return asynchronous(name, path, message, exchange);
        }
        return new AccessPoint(name, path, message,
                // the exchange itself inside the worker's task: a thenCompose after supplyAsync could run it on the
                // calling event loop when the task finished first
                body -> CompletableFuture.supplyAsync(() -> exchange.answer(body), workers).thenCompose(stage -> stage), false);
    }

    /** {@code application/x-its-request}, any case, parameters ignored. */
    static boolean isItsRequest(String contentType) {
        int semicolon = contentType.indexOf(';');
        String bare = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
        return bare.equalsIgnoreCase(ITS_REQUEST);
    }
}
