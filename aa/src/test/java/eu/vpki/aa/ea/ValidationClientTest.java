package eu.vpki.aa.ea;

import com.sun.net.httpserver.HttpServer;
import eu.vpki.aa.core.AuthorizationValidationClient;
import eu.vpki.aa.core.EaCallException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Both EA clients against a local HTTP server: the answer, and each failure as its reason. */
class ValidationClientTest {
    static HttpServer server;
    static final CountDownLatch RELEASE_SLOW = new CountDownLatch(1);

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/ok", x -> {
            byte[] in = x.getRequestBody().readAllBytes();
            boolean itsRequest = "application/x-its-request".equals(x.getRequestHeaders().getFirst("Content-Type"));
            byte[] out = itsRequest ? new byte[]{(byte) in.length, 42} : new byte[]{0};
            x.getResponseHeaders().add("Content-Type", "application/x-its-response");
            x.sendResponseHeaders(200, out.length);
            try (OutputStream o = x.getResponseBody()) {
                o.write(out);
            }
        });
        server.createContext("/status", x -> {
            x.sendResponseHeaders(503, -1);
            x.close();
        });
        server.createContext("/json", x -> {
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(200, 2);
            try (OutputStream o = x.getResponseBody()) {
                o.write("{}".getBytes());
            }
        });
        server.createContext("/slow", x -> {
            try {
                RELEASE_SLOW.await(); // released when the class ends: /slow never answers a test
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        server.start();
    }

    @AfterAll
    static void stop() {
        RELEASE_SLOW.countDown();
        server.stop(0);
    }

    /**
     * A client whose timeouts no answering server reaches however busy the machine: only the server that never
     * answers (/slow, held until the class ends) meets {@link #NEVER_ANSWERED}, so no test races a timeout.
     */
    static AuthorizationValidationClient client(String kind) {
        return client(kind, PATIENT);
    }

    static AuthorizationValidationClient client(String kind, Duration requestTimeout) {
        return "JDK".equals(kind) ? new JdkValidationClient(PATIENT, requestTimeout)
                : new ApacheValidationClient(PATIENT, requestTimeout, 8);
    }

    static final Duration PATIENT = Duration.ofSeconds(60);
    /** The request timeout against /slow, which does not answer before the class ends whatever the wait. */
    static final Duration NEVER_ANSWERED = Duration.ofMillis(300);

    static URI at(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    @ParameterizedTest
    @ValueSource(strings = {"JDK", "APACHE"})
    void postsAnItsRequest_andReturnsTheItsResponse_overOneReusedConnection(String kind) throws Exception {
        AuthorizationValidationClient client = client(kind);
        for (int i = 0; i < 3; i++) {
            assertThat(client.validate(at("/ok"), new byte[]{1, 2, 3})).containsExactly(3, 42);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"JDK", "APACHE"})
    void eachFailure_hasItsReason(String kind) throws IOException {
        AuthorizationValidationClient client = client(kind);
        assertThatThrownBy(() -> client.validate(at("/status"), new byte[1])).isInstanceOfSatisfying(EaCallException.class,
                e -> assertThat(e.reason()).isEqualTo(EaCallException.Reason.HTTP_STATUS));
        assertThatThrownBy(() -> client.validate(at("/json"), new byte[1])).isInstanceOfSatisfying(EaCallException.class,
                e -> assertThat(e.reason()).isEqualTo(EaCallException.Reason.CONTENT_TYPE));
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        assertThatThrownBy(() -> client.validate(URI.create("http://127.0.0.1:" + closed + "/x"), new byte[1]))
                .isInstanceOfSatisfying(EaCallException.class, e -> assertThat(e.reason()).isEqualTo(EaCallException.Reason.IO));
    }

    @ParameterizedTest
    @ValueSource(strings = {"JDK", "APACHE"})
    void aServerThatDoesNotAnswer_isATimeout(String kind) {
        AuthorizationValidationClient client = client(kind, NEVER_ANSWERED);
        assertThatThrownBy(() -> client.validate(at("/slow"), new byte[1])).isInstanceOfSatisfying(EaCallException.class,
                e -> assertThat(e.reason()).isEqualTo(EaCallException.Reason.TIMEOUT));
    }
}
