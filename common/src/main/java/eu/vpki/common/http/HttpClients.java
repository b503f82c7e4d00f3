package eu.vpki.common.http;

import eu.vpki.common.etsi.crypto.ApiTlsCa;

import javax.net.ssl.SSLContext;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;

/**
 * The one place production code builds a JDK {@link HttpClient}: the HTTP version, the connect
 * timeout, the TLS trust (an {@link SSLContext}, or only the CA of a PEM file such as a deployment's
 * {@code tls/ca.crt}; neither: the JDK's public CAs), the redirect policy and, for command-line tools
 * that must not be kept alive by the client, an executor of daemon threads. Plain {@code http} URLs
 * are unaffected by the trust, so one client serves peers with and without TLS.
 *
 * <pre>
 * HttpClient http = HttpClients.http11(Duration.ofSeconds(5)).trustingPemCa(tlsCa).daemonThreads("http").build();
 * </pre>
 */
public final class HttpClients {
    private final HttpClient.Builder builder;

    private HttpClients(HttpClient.Version version, Duration connectTimeout) {
        this.builder = HttpClient.newBuilder().version(version).connectTimeout(connectTimeout);
    }

    /** HTTP/1.1 (one request per connection at a time, kept alive) with this connect timeout. */
    public static HttpClients http11(Duration connectTimeout) {
        return new HttpClients(HttpClient.Version.HTTP_1_1, connectTimeout);
    }

    /** {@code version} with this connect timeout ({@link HttpClient.Version#HTTP_2} is the JDK's default). */
    public static HttpClients of(HttpClient.Version version, Duration connectTimeout) {
        return new HttpClients(version, connectTimeout);
    }

    /** https servers verified with {@code tls}; null: the JDK's public CAs. */
    public HttpClients trusting(SSLContext tls) {
        if (tls != null) {
            builder.sslContext(tls);
        }
        return this;
    }

    /** https servers accepted only with a certificate of the CA in {@code pemCa} ({@link ApiTlsCa#clientContext}); null: the JDK's public CAs. */
    public HttpClients trustingPemCa(Path pemCa) {
        return pemCa == null ? this : trusting(ApiTlsCa.clientContext(pemCa));
    }

    /** The redirect policy (the JDK's default: {@link HttpClient.Redirect#NEVER}). */
    public HttpClients redirects(HttpClient.Redirect policy) {
        builder.followRedirects(policy);
        return this;
    }

    /** Runs the client's work on a cached pool of daemon threads named {@code threadName}, so that it never keeps the JVM alive. */
    public HttpClients daemonThreads(String threadName) {
        builder.executor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        }));
        return this;
    }

    /** The JDK builder with everything set so far, for what else a caller sets. */
    public HttpClient.Builder builder() {
        return builder;
    }

    public HttpClient build() {
        return builder.build();
    }
}
