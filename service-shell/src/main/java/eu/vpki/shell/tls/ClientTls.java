package eu.vpki.shell.tls;

import eu.vpki.common.http.HttpClients;
import org.springframework.boot.ssl.SslBundles;

import javax.net.ssl.SSLContext;
import java.net.http.HttpClient;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;

/**
 * The TLS trust of a service's outgoing calls: an {@link SSLContext} from a Spring Boot SSL bundle,
 * or the JDK's default (public CAs) when none is named. Plain {@code http} URLs are unaffected, so
 * the same client serves peers with and without TLS.
 */
public final class ClientTls {
    private final SSLContext context;
    private final String trust;

    private ClientTls(SSLContext context, String trust) {
        this.context = context;
        this.trust = trust;
    }

    /**
     * The trust of SSL bundle {@code bundle}; the JDK's public CAs when {@code bundle} is null or blank.
     *
     * @throws org.springframework.boot.ssl.NoSuchSslBundleException when no bundle has that name (a start-up failure)
     */
    public static ClientTls of(SslBundles bundles, String bundle) {
        if (bundle == null || bundle.isBlank()) {
            return jdkDefaults();
        }
        return new ClientTls(bundles.getBundle(bundle.strip()).createSslContext(), "SSL bundle '" + bundle.strip() + "'");
    }

    /** The JDK's default context: its public CAs. */
    public static ClientTls jdkDefaults() {
        try {
            return new ClientTls(SSLContext.getDefault(), "the JDK's public CAs");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no default TLS context in this JDK", e);
        }
    }

    public SSLContext sslContext() {
        return context;
    }

    /** A JDK client builder with this trust, HTTP/1.1 (one request per connection at a time, kept alive) and {@code connectTimeout}. */
    public HttpClient.Builder httpClient(Duration connectTimeout) {
        return HttpClients.http11(connectTimeout).trusting(context).builder();
    }

    /** What is trusted, for logs: {@code SSL bundle 'peers'} or {@code the JDK's public CAs}. */
    @Override
    public String toString() {
        return trust;
    }
}
