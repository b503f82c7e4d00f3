package eu.vpki.aa.ea;

import com.sun.net.httpserver.HttpServer;
import eu.vpki.aa.core.AuthorizationValidationClient;
import eu.vpki.aa.core.EaCallException;
import eu.vpki.common.testing.HttpHeadLine;
import eu.vpki.shell.etsi.EventLoops;
import eu.vpki.shell.tls.ClientTls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.net.ssl.SSLContext;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Both EA clients against a local HTTP server: the answer, and each failure as its reason; the Netty client's pool. */
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
        server.createContext("/large", x -> {
            x.getResponseHeaders().add("Content-Type", "application/x-its-response");
            x.sendResponseHeaders(200, 70_000);
            try (OutputStream o = x.getResponseBody()) {
                o.write(new byte[70_000]);
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
        LOOPS.close();
    }

    static final EventLoops LOOPS = new EventLoops(2, true);

    /**
     * A client whose timeouts no answering server reaches however busy the machine: only the server that never
     * answers (/slow, held until the class ends) meets {@link #NEVER_ANSWERED}, so no test races a timeout.
     */
    static AuthorizationValidationClient client(String kind) {
        return client(kind, PATIENT, 8);
    }

    static AuthorizationValidationClient client(String kind, Duration requestTimeout, int maxConnections) {
        SSLContext tls = ClientTls.jdkDefaults().sslContext();
        return "JDK".equals(kind)
                ? new JdkValidationClient(PATIENT, requestTimeout, tls)
                : new NettyValidationClient(LOOPS, PATIENT, requestTimeout, maxConnections, tls);
    }

    static final Duration PATIENT = Duration.ofSeconds(60);
    /** The request timeout against /slow, which does not answer before the class ends whatever the wait. */
    static final Duration NEVER_ANSWERED = Duration.ofMillis(300);

    static URI at(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    /** The call's answer, or the {@link EaCallException} it failed with (thrown). */
    static byte[] call(AuthorizationValidationClient client, URI uri, byte[] body) throws Throwable {
        try {
            return client.validate(uri, body).get(120, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"JDK", "NETTY"})
    void postsAnItsRequest_andReturnsTheItsResponse(String kind) throws Throwable {
        AuthorizationValidationClient client = client(kind);
        for (int i = 0; i < 3; i++) {
            assertThat(call(client, at("/ok"), new byte[]{1, 2, 3})).containsExactly(3, 42);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"JDK", "NETTY"})
    void eachFailure_hasItsReason(String kind) throws Throwable {
        AuthorizationValidationClient client = client(kind);
        assertThatThrownBy(() -> call(client, at("/status"), new byte[1])).isInstanceOfSatisfying(EaCallException.class,
                e -> assertThat(e.reason()).isEqualTo(EaCallException.Reason.HTTP_STATUS));
        assertThatThrownBy(() -> call(client, at("/json"), new byte[1])).isInstanceOfSatisfying(EaCallException.class,
                e -> assertThat(e.reason()).isEqualTo(EaCallException.Reason.CONTENT_TYPE));
        assertThatThrownBy(() -> call(client, at("/large"), new byte[1])).isInstanceOfSatisfying(EaCallException.class,
                e -> assertThat(e.reason()).isIn(EaCallException.Reason.UNREADABLE_RESPONSE));
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        assertThatThrownBy(() -> call(client, URI.create("http://127.0.0.1:" + closed + "/x"), new byte[1]))
                .isInstanceOfSatisfying(EaCallException.class, e -> assertThat(e.reason()).isEqualTo(EaCallException.Reason.IO));
        assertThat(call(client, at("/ok"), new byte[]{1})).as("the client still works").containsExactly(1, 42);
    }

    @ParameterizedTest
    @ValueSource(strings = {"JDK", "NETTY"})
    void aServerThatDoesNotAnswer_isATimeout(String kind) {
        AuthorizationValidationClient client = client(kind, NEVER_ANSWERED, 8);
        assertThatThrownBy(() -> call(client, at("/slow"), new byte[1])).isInstanceOfSatisfying(EaCallException.class,
                e -> assertThat(e.reason()).isEqualTo(EaCallException.Reason.TIMEOUT));
    }

    /** The EA closed a kept-alive connection while it was idle: the next call goes out again on a new connection. */
    @Test
    void netty_aKeptAliveConnectionTheServerClosed_isReplacedWithoutAFailure() throws Throwable {
        try (OneAnswerPerConnection ea = new OneAnswerPerConnection()) {
            AuthorizationValidationClient client = client("NETTY");
            URI uri = URI.create("http://127.0.0.1:" + ea.port() + "/v");
            for (int i = 0; i < 4; i++) {
                // the first call opens a connection; each later one goes out on the kept-alive one, which the server closes
                // on reading it, and again on a new connection
                assertThat(call(client, uri, new byte[]{(byte) i})).containsExactly(1, 42);
            }
            assertThat(ea.connections.get()).isEqualTo(4);
        }
    }

    /** At most {@code maxConnections} to one access point: calls beyond wait for one to come free, and all are answered. */
    @Test
    void netty_callsBeyondMaxConnections_waitForAConnection() throws Throwable {
        try (OneAnswerPerConnection ea = new OneAnswerPerConnection(true)) {
            AuthorizationValidationClient client = client("NETTY", PATIENT, 2);
            URI uri = URI.create("http://127.0.0.1:" + ea.port() + "/v");
            List<CompletableFuture<byte[]>> calls = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                calls.add(client.validate(uri, new byte[]{(byte) i}));
            }
            for (CompletableFuture<byte[]> c : calls) {
                assertThat(c.get(120, TimeUnit.SECONDS)).containsExactly(1, 42);
            }
            assertThat(ea.maxOpen.get()).as("connections open at once").isLessThanOrEqualTo(2);
        }
    }

    /**
     * An EA over plain sockets that counts connections: it answers each request with keep-alive; unless {@code keep},
     * it reads the second request of a connection and closes it without an answer (as a server whose keep-alive
     * timeout passed as the request went out).
     */
    static final class OneAnswerPerConnection implements AutoCloseable {
        final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger open = new AtomicInteger();
        final AtomicInteger maxOpen = new AtomicInteger();
        private final Thread acceptor;

        OneAnswerPerConnection() throws IOException {
            this(false);
        }

        OneAnswerPerConnection(boolean keep) throws IOException {
            acceptor = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket s = socket.accept();
                        connections.incrementAndGet();
                        maxOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
                        new Thread(() -> serve(s, keep)).start();
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            acceptor.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        private void serve(Socket s, boolean keep) {
            int answered = 0;
            try (s; InputStream in = new BufferedInputStream(s.getInputStream()); OutputStream out = s.getOutputStream()) {
                while (true) {
                    int length = -1;
                    for (String line = HttpHeadLine.read(in); !line.isEmpty(); line = HttpHeadLine.read(in)) {
                        if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                            length = Integer.parseInt(line.substring(15).trim());
                        }
                    }
                    in.readNBytes(length);
                    if (answered++ > 0 && !keep) {
                        return; // the second request on this connection: closed without an answer
                    }
                    out.write("HTTP/1.1 200 OK\r\nContent-Type: application/x-its-response\r\nContent-Length: 2\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    out.write(new byte[]{1, 42});
                    out.flush();
                }
            } catch (IOException closedByClient) {
                // the client went away
            } finally {
                open.decrementAndGet();
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
