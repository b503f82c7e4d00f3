package eu.vpki.aa.ea;

import eu.vpki.aa.core.AuthorizationValidationClient;
import eu.vpki.aa.core.EaCallException;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.util.Timeout;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * {@link AuthorizationValidationClient} on Apache HttpClient 5 (classic, blocking): an explicit
 * connection pool ({@code maxConnections} per EA access point; over {@code https} each pooled connection
 * keeps its TLS session), connect and response timeouts. The
 * alternative to {@link JdkValidationClient}; docs/benchmarks-history.md compares them under load.
 */
public final class ApacheValidationClient implements AuthorizationValidationClient, AutoCloseable {
    private static final ContentType ITS_REQUEST = ContentType.create(JdkValidationClient.ITS_REQUEST);
    private static final int MAX_RESPONSE_BYTES = 64 * 1024;

    private final CloseableHttpClient http;

    /** Plain HTTP, or https verified with the JDK's public CAs. */
    public ApacheValidationClient(Duration connectTimeout, Duration requestTimeout, int maxConnections) {
        this(connectTimeout, requestTimeout, maxConnections, null);
    }

    /** {@code tls}: how an {@code https} access point's certificate is verified (null: the JDK's public CAs). */
    public ApacheValidationClient(Duration connectTimeout, Duration requestTimeout, int maxConnections, SSLContext tls) {
        PoolingHttpClientConnectionManagerBuilder poolBuilder = PoolingHttpClientConnectionManagerBuilder.create();
        if (tls != null) {
            poolBuilder.setTlsSocketStrategy(ClientTlsStrategyBuilder.create().setSslContext(tls).buildClassic());
        }
        PoolingHttpClientConnectionManager pool = poolBuilder
                .setMaxConnPerRoute(maxConnections).setMaxConnTotal(maxConnections * 4)
                .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(Timeout.of(connectTimeout))
                        .setSocketTimeout(Timeout.of(requestTimeout)).build())
                .build();
        // an ETSI exchange needs none of the client's protocol features: no redirects, retries, compression, cookies,
        // authentication or connection state (each is a step of every call's execution chain)
        this.http = HttpClients.custom().setConnectionManager(pool).disableRedirectHandling().disableAutomaticRetries()
                .disableContentCompression().disableCookieManagement().disableAuthCaching().disableConnectionState()
                .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.of(requestTimeout))
                        .setConnectionRequestTimeout(Timeout.of(requestTimeout)).build())
                .build();
    }

    @Override
    public byte[] validate(URI accessPoint, byte[] body) throws EaCallException {
        HttpPost post = new HttpPost(accessPoint);
        post.setHeader("Accept", JdkValidationClient.ITS_RESPONSE);
        post.setEntity(new ByteArrayEntity(body, ITS_REQUEST));
        try {
            return http.execute(post, response -> {
                byte[] answer = response.getEntity() == null ? new byte[0] : EntityUtils.toByteArray(response.getEntity(), MAX_RESPONSE_BYTES + 1);
                if (response.getCode() != 200) {
                    throw new CallFailure(new EaCallException(EaCallException.Reason.HTTP_STATUS, accessPoint + " answered HTTP " + response.getCode()));
                }
                Header type = response.getFirstHeader("Content-Type");
                String value = type == null ? "" : type.getValue();
                if (!value.toLowerCase(Locale.ROOT).split(";", 2)[0].trim().equals(JdkValidationClient.ITS_RESPONSE)) {
                    throw new CallFailure(new EaCallException(EaCallException.Reason.CONTENT_TYPE, accessPoint + " answered Content-Type '" + value + "'"));
                }
                if (answer.length > MAX_RESPONSE_BYTES) {
                    throw new CallFailure(new EaCallException(EaCallException.Reason.UNREADABLE_RESPONSE, accessPoint + " answered too much"));
                }
                return answer;
            });
        } catch (CallFailure f) {
            throw f.failure;
        } catch (InterruptedIOException e) { // connect, socket and response timeouts
            throw new EaCallException(EaCallException.Reason.TIMEOUT, accessPoint + ": " + e, e);
        } catch (IOException e) {
            throw new EaCallException(EaCallException.Reason.IO, accessPoint + ": " + e, e);
        }
    }

    /** Carries an {@link EaCallException} out of the response handler. */
    private static final class CallFailure extends IOException {
        final EaCallException failure;

        CallFailure(EaCallException failure) {
            super(failure.getMessage());
            this.failure = failure;
        }
    }

    @Override
    public void close() throws IOException {
        http.close();
    }
}
