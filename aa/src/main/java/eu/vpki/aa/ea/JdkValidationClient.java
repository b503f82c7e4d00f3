package eu.vpki.aa.ea;

import eu.vpki.aa.core.AuthorizationValidationClient;
import eu.vpki.aa.core.EaCallException;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;

/**
 * {@link AuthorizationValidationClient} on the JDK's {@link HttpClient}: HTTP/1.1 with persistent
 * connections (the client keeps idle connections per host and reuses them; no pool limit), a
 * connect timeout and a per-request timeout. Over {@code https} a connection's TLS handshake is made
 * once and the connection kept alive, so handshakes are amortised over its requests. One instance per
 * AA process, shared by all request threads. docs/aa.md records why this client and not a separately pooled one.
 */
public final class JdkValidationClient implements AuthorizationValidationClient {
    static final String ITS_REQUEST = "application/x-its-request";
    static final String ITS_RESPONSE = "application/x-its-response";
    private static final int MAX_RESPONSE_BYTES = 64 * 1024;

    private final HttpClient http;
    private final Duration requestTimeout;

    /** Plain HTTP, or https verified with the JDK's public CAs. */
    public JdkValidationClient(Duration connectTimeout, Duration requestTimeout) {
        this(connectTimeout, requestTimeout, null);
    }

    /** {@code tls}: how an {@code https} access point's certificate is verified (null: the JDK's public CAs). */
    public JdkValidationClient(Duration connectTimeout, Duration requestTimeout, SSLContext tls) {
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER);
        this.http = (tls == null ? builder : builder.sslContext(tls)).build();
        this.requestTimeout = requestTimeout;
    }

    @Override
    public byte[] validate(URI accessPoint, byte[] body) throws EaCallException {
        HttpRequest request = HttpRequest.newBuilder(accessPoint).timeout(requestTimeout)
                .header("Content-Type", ITS_REQUEST).header("Accept", ITS_RESPONSE)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw new EaCallException(EaCallException.Reason.TIMEOUT, accessPoint + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new EaCallException(EaCallException.Reason.IO, accessPoint + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EaCallException(EaCallException.Reason.IO, accessPoint + ": interrupted", e);
        }
        if (response.statusCode() != 200) {
            throw new EaCallException(EaCallException.Reason.HTTP_STATUS, accessPoint + " answered HTTP " + response.statusCode());
        }
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (!type.toLowerCase(Locale.ROOT).split(";", 2)[0].trim().equals(ITS_RESPONSE)) {
            throw new EaCallException(EaCallException.Reason.CONTENT_TYPE, accessPoint + " answered Content-Type '" + type + "'");
        }
        if (response.body().length > MAX_RESPONSE_BYTES) {
            throw new EaCallException(EaCallException.Reason.UNREADABLE_RESPONSE, accessPoint + " answered more than " + MAX_RESPONSE_BYTES + " bytes");
        }
        return response.body();
    }
}
