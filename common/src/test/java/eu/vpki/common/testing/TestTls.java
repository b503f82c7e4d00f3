package eu.vpki.common.testing;

import eu.vpki.common.etsi.crypto.ApiTlsCa;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * TLS for the tests' bearer-token APIs, as the local cluster sets it up: one {@link ApiTlsCa} per test
 * JVM (in a temporary directory) and one server certificate for {@code 127.0.0.1} and {@code localhost},
 * given to a service as a Spring Boot PEM SSL bundle ({@link #serverArguments()}), and clients that
 * trust that CA only ({@link #client()}).
 */
public final class TestTls {
    private static final TestTls LOOPBACK = create();

    private final Path caCertificate;
    private final ApiTlsCa.Issued server;

    private TestTls(Path caCertificate, ApiTlsCa.Issued server) {
        this.caCertificate = caCertificate;
        this.server = server;
    }

    /** The JVM's CA and loopback server certificate. */
    public static TestTls loopback() {
        return LOOPBACK;
    }

    private static TestTls create() {
        try {
            Path dir = ExitDeletedDirectory.create("vpki-test-tls-");
            SecureRandom random = new SecureRandom();
            Instant now = Instant.now().minus(Duration.ofHours(1));
            ApiTlsCa ca = ApiTlsCa.generate("vpki test API TLS CA", now, Duration.ofDays(2), random);
            Path caCertificate = dir.resolve("ca.crt");
            ca.write(caCertificate, dir.resolve("ca.key"));
            return new TestTls(caCertificate, ca.issueServer("loopback", List.of("127.0.0.1", "localhost"), now, Duration.ofDays(2),
                    random, dir));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path caCertificate() {
        return caCertificate;
    }

    /**
     * Properties that make a service's port speak TLS only, with the loopback certificate (bundle
     * {@code api}, as deployments name it); plain paths, as the AWS deployment gives them.
     */
    public Map<String, String> serverProperties() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("server.ssl.bundle", "api");
        m.put("spring.ssl.bundle.pem.api.keystore.certificate", server.certificateChain().toString());
        m.put("spring.ssl.bundle.pem.api.keystore.private-key", server.privateKey().toString());
        return m;
    }

    /** {@link #serverProperties()} as command-line arguments ({@code --key=value}). */
    public List<String> serverArguments() {
        return serverProperties().entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toList();
    }

    /**
     * Properties that make a service's own clients (DC fetches, publication, the AA's validation calls)
     * trust the CA only for https URLs: {@code vpki.tls.client-bundle} {@code peers}.
     */
    public Map<String, String> clientTrustProperties() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("vpki.tls.client-bundle", "peers");
        m.put("spring.ssl.bundle.pem.peers.truststore.certificate", caCertificate.toString());
        return m;
    }

    /** {@link #clientTrustProperties()} as command-line arguments. */
    public List<String> clientTrustArguments() {
        return clientTrustProperties().entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toList();
    }

    /** A client that trusts the CA only. */
    public HttpClient client() {
        return HttpClient.newBuilder().sslContext(ApiTlsCa.clientContext(caCertificate)).build();
    }
}
