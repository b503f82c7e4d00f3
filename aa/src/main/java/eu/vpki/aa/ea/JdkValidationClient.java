package eu.vpki.aa.ea;

import eu.vpki.aa.core.AuthorizationValidationClient;
import eu.vpki.aa.core.EaCallException;
import eu.vpki.common.http.HttpClients;
import eu.vpki.shell.etsi.AccessPoint;

import javax.net.ssl.SSLContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@link AuthorizationValidationClient} on the JDK's {@link HttpClient} ({@code sendAsync}; the AA finishes an
 * authorization on the client's threads, not on the event loop that read the request): HTTP/1.1 with persistent
 * connections (the client keeps idle connections per host and reuses them; no pool limit), a
 * connect timeout and a per-request timeout. Over {@code https} a connection's TLS handshake is made
 * once and the connection kept alive, so handshakes are amortised over its requests. One instance per
 * AA process, shared by all request threads. docs/aa.md records why this client and not a separately pooled one.
 */
public final class JdkValidationClient implements AuthorizationValidationClient {
    private static final int MAX_RESPONSE_BYTES = 64 * 1024;

    private final HttpClient http;
    private final Duration requestTimeout;

    /** Plain HTTP, or https verified with the JDK's public CAs. */
    public JdkValidationClient(Duration connectTimeout, Duration requestTimeout) {
        this(connectTimeout, requestTimeout, null);
    }

    /** {@code tls}: how an {@code https} access point's certificate is verified (null: the JDK's public CAs). */
    public JdkValidationClient(Duration connectTimeout, Duration requestTimeout, SSLContext tls) {
        this.http = HttpClients.http11(connectTimeout).redirects(HttpClient.Redirect.NEVER).trusting(tls).build();
        this.requestTimeout = requestTimeout;
    }

    @Override
    public CompletableFuture<byte[]> validate(URI accessPoint, byte[] body) {
        HttpRequest request = HttpRequest.newBuilder(accessPoint).timeout(requestTimeout)
                .header("Content-Type", AccessPoint.ITS_REQUEST).header("Accept", AccessPoint.ITS_RESPONSE)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).handle((response, failure) -> {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            if (cause instanceof HttpTimeoutException) {
                throw new CompletionException(
                        new EaCallException(EaCallException.Reason.TIMEOUT, accessPoint + ": " + cause.getMessage(), cause));
            }
            if (cause != null) {
                throw new CompletionException(new EaCallException(EaCallException.Reason.IO, accessPoint + ": " + cause, cause));
            }
            if (response.statusCode() != 200) {
                throw new CompletionException(new EaCallException(EaCallException.Reason.HTTP_STATUS,
                        accessPoint + " answered HTTP " + response.statusCode()));
            }
            String type = response.headers().firstValue("Content-Type").orElse("");
            if (!type.toLowerCase(Locale.ROOT).split(";", 2)[0].trim().equals(AccessPoint.ITS_RESPONSE)) {
                throw new CompletionException(new EaCallException(EaCallException.Reason.CONTENT_TYPE,
                        accessPoint + " answered Content-Type '" + type + "'"));
            }
            if (response.body().length > MAX_RESPONSE_BYTES) {
                throw new CompletionException(new EaCallException(EaCallException.Reason.UNREADABLE_RESPONSE,
                        accessPoint + " answered more than " + MAX_RESPONSE_BYTES + " bytes"));
            }
            return response.body();
        });
    }
}
