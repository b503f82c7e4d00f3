package eu.vpki.shell.etsi;

import ch.qos.logback.classic.Level;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.testing.HttpHeadLine;
import eu.vpki.common.testing.LogCapture;
import eu.vpki.common.testing.StreamedPost;
import eu.vpki.common.testing.TestTls;
import eu.vpki.shell.limits.RequestBodyLimit;
import eu.vpki.shell.limits.RequestBodyLimits;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The access point server over real TCP (raw sockets and the JDK's client): answers, the problems that are
 * not ETSI answers, the body limit before the body is read, keep-alive, pipelining, the three ways an exchange
 * runs, the timeouts and the connection limit, TLS, metrics and a graceful stop.
 */
class AccessPointServerTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String ITS = "application/x-its-request";
    private static EventLoops loops;
    private static AccessPointWorkers workers;

    private final AtomicInteger reached = new AtomicInteger();
    private final AtomicReference<String> lastThread = new AtomicReference<>();
    /** Exchanges of {@code /etsi/later} wait here until the test completes them. */
    private final LinkedBlockingQueue<CompletableFuture<byte[]>> later = new LinkedBlockingQueue<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<AccessPointServer> servers = new ArrayList<>();

    @BeforeAll
    static void loops() {
        loops = new EventLoops(2, true);
        workers = new AccessPointWorkers(4);
    }

    @AfterAll
    static void stopLoops() {
        loops.close();
        workers.close();
    }

    @AfterEach
    void stopServers() {
        servers.forEach(s -> s.stop(Duration.ofSeconds(1)));
    }

    /** Reverses the body; a body starting with 1 is undecryptable, 2 fails unexpectedly, 7 is a replica out of service. */
    private byte[] echo(byte[] body) {
        reached.incrementAndGet();
        lastThread.set(Thread.currentThread().getName());
        if (body.length > 0 && body[0] == 1) {
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "cannot decrypt this");
        }
        if (body.length > 0 && body[0] == 7) {
            throw new PkiException(ErrorCode.REPLICATION_UNAVAILABLE, "replica ea-1 is MINORITY");
        }
        if (body.length > 0 && body[0] == 2) {
            throw new IllegalStateException("internal secret");
        }
        byte[] reversed = new byte[body.length];
        for (int i = 0; i < body.length; i++) {
            reversed[i] = body[body.length - 1 - i];
        }
        return reversed;
    }

    private static AccessPointServer.Settings settings() {
        return new AccessPointServer.Settings("127.0.0.1", 0, 8192, 4096, 200, Duration.ofSeconds(20), Duration.ofSeconds(60), 10_000,
                64 * 1024);
    }

    private int start(AccessPointServer.Settings settings, io.netty.handler.ssl.SslContext tls) {
        List<AccessPoint> points = List.of(
                AccessPoint.onEventLoop("echo", "/etsi/echo", "an EchoRequest", this::echo),
                AccessPoint.blocking("blocking", "/etsi/blocking", "a BlockingRequest", this::echo),
                AccessPoint.asynchronous("later", "/etsi/later", "a LaterRequest", body -> {
                    reached.incrementAndGet();
                    CompletableFuture<byte[]> f = new CompletableFuture<>();
                    later.add(f);
                    return f;
                }),
                AccessPoint.onEventLoop("root", "/", "a RootRequest", body -> new byte[]{42}));
        RequestBodyLimits limits = new RequestBodyLimits(List.of(new RequestBodyLimit("test.etsi-bytes", List.of("/etsi/**"), 1000)), 2000);
        AccessPointServer server = new AccessPointServer(settings, points, limits, loops, workers, tls, registry);
        servers.add(server);
        return server.start();
    }

    private int start() {
        return start(settings(), null);
    }

    private static URI url(int port, String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private static HttpResponse<byte[]> post(int port, String path, String type, byte[] body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(url(port, path)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (type != null) {
            b.header("Content-Type", type);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String text(HttpResponse<byte[]> response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    @Test
    void itsRequest_isAnswered200_itsResponse_withTheExchangesBytes_onTheEventLoop() throws Exception {
        int port = start();
        HttpResponse<byte[]> answer = post(port, "/etsi/echo", ITS, new byte[]{5, 6, 7});
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/x-its-response");
        assertThat(answer.headers().firstValue("Content-Length")).hasValue("3");
        assertThat(answer.headers().firstValue("Date")).isPresent();
        assertThat(answer.body()).containsExactly(7, 6, 5);
        assertThat(lastThread.get()).startsWith("vpki-etsi");
        // the media type in another case and with a parameter is the same media type; a query is not part of the path
        assertThat(post(port, "/etsi/echo?x=1", "Application/X-ITS-Request; charset=binary", new byte[]{8, 9}).body()).containsExactly(9,
                8);
        assertThat(post(port, "/", ITS, new byte[]{1}).body()).containsExactly(42);
    }

    @Test
    void aBlockingAccessPoint_runsOnAWorkerThread_andAnAsynchronousOne_answersWhenItsStageCompletes() throws Exception {
        int port = start();
        assertThat(post(port, "/etsi/blocking", ITS, new byte[]{4, 5, 6}).body()).containsExactly(6, 5, 4);
        assertThat(lastThread.get()).startsWith("vpki-access-point-worker-");

        CompletableFuture<HttpResponse<byte[]>> pending = HTTP.sendAsync(HttpRequest.newBuilder(url(port, "/etsi/later"))
                .header("Content-Type", ITS).POST(HttpRequest.BodyPublishers.ofByteArray(new byte[]{1})).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        CompletableFuture<byte[]> exchange = later.poll(10, TimeUnit.SECONDS);
        assertThat(exchange).isNotNull();
        assertThat(pending).isNotDone();
        new Thread(() -> exchange.complete(new byte[]{9, 9})).start();
        assertThat(pending.get(10, TimeUnit.SECONDS).body()).containsExactly(9, 9);
    }

    @Test
    void refusalsOfTheExchange_areProblems_withTheCodesStatus_andNoInternalDetail_andKeepTheConnection() throws Exception {
        int port = start();
        HttpResponse<byte[]> undecryptable = post(port, "/etsi/echo", ITS, new byte[]{1, 0});
        assertThat(undecryptable.statusCode()).isEqualTo(400);
        assertThat(undecryptable.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(text(undecryptable)).contains("\"type\":\"urn:vpki:error:malformed-encoding\"", "\"code\":100",
                "\"error\":\"MALFORMED_ENCODING\"",
                "cannot decrypt this", "\"instance\":\"/etsi/echo\"");

        try (LogCapture log = LogCapture.of(AccessPointServer.class)) {
            HttpResponse<byte[]> failed = post(port, "/etsi/blocking", ITS, new byte[]{2});
            assertThat(failed.statusCode()).isEqualTo(500);
            assertThat(text(failed)).contains("\"error\":\"INTERNAL_ERROR\"").doesNotContain("internal secret");
            assertThat(log.events(Level.ERROR)).singleElement().satisfies(e -> assertThat(e.getThrowableProxy()).isNotNull());
        }
        try (RawConnection c = new RawConnection(port)) {
            assertThat(c.post("/etsi/echo", ITS, new byte[]{1}).status()).isEqualTo(400);
            assertThat(c.post("/etsi/echo", ITS, new byte[]{3, 4}).body()).containsExactly(4, 3);
        }
    }

    @Test
    void aReplicaOutOfService_is503_soThatTheCallerTriesAnotherReplica_loggedWithoutAStackTrace() throws Exception {
        int port = start();
        try (LogCapture log = LogCapture.of(AccessPointServer.class)) {
            HttpResponse<byte[]> notServed = post(port, "/etsi/echo", ITS, new byte[]{7});

            assertThat(notServed.statusCode()).isEqualTo(503);
            assertThat(notServed.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(text(notServed)).contains("\"error\":\"REPLICATION_UNAVAILABLE\"", "\"code\":703");
            assertThat(log.events(Level.WARN)).singleElement().satisfies(e -> assertThat(e.getThrowableProxy()).isNull());
            assertThat(log.events(Level.ERROR)).isEmpty();
        }
    }

    @Test
    void wrongContentType_is415_wrongMethod_is405WithAllow_unknownPath_is404_noneReachesAnExchange() throws Exception {
        int port = start();
        int before = reached.get();
        HttpResponse<byte[]> json = post(port, "/etsi/echo", "application/json", "{}".getBytes());
        assertThat(json.statusCode()).isEqualTo(415);
        assertThat(text(json)).contains("\"error\":\"UNEXPECTED_CONTENT\"",
                "POST an EchoRequest as application/x-its-request, not application/json");
        assertThat(post(port, "/etsi/echo", null, new byte[]{1}).statusCode()).isEqualTo(415);

        HttpResponse<byte[]> get;
        try (LogCapture log = LogCapture.of(AccessPointServer.class)) {
            get = HTTP.send(HttpRequest.newBuilder(url(port, "/etsi/echo")).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(log.messages(Level.INFO)).singleElement().asString().startsWith("GET /etsi/echo refused: 405");
        }
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Allow")).hasValue("POST");
        assertThat(text(get)).contains("\"status\":405", "\"error\":\"INVALID_ARGUMENT\"");

        HttpResponse<byte[]> unknown = post(port, "/etsi/echo/more", ITS, new byte[]{1});
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(text(unknown)).contains("\"error\":\"NOT_FOUND\"");
        assertThat(reached.get()).isEqualTo(before);
        // runs of slashes count as one, and an escaped letter is that letter
        assertThat(post(port, "//etsi//%65cho", ITS, new byte[]{3, 5}).body()).containsExactly(5, 3);
    }

    @Test
    void overTheLimit_is413_declaredOrChunked_connectionClosed_andNeverReachesTheExchange() throws Exception {
        int port = start();
        int before = reached.get();
        for (Long length : new Long[]{null, 1001L}) {
            StreamedPost a = StreamedPost.send(url(port, "/etsi/echo"), ITS, 1001, length, Map.of());
            assertThat(a.status()).as("Content-Length " + length).isEqualTo(413);
            assertThat(a.headers().get("connection")).isEqualTo("close");
            assertThat(a.body()).contains("\"code\":102", "\"error\":\"OVERSIZE_INPUT\"", "test.etsi-bytes");
        }
        // a body far over the limit is cut off, not drained: declared (refused before a byte of it is read) or chunked
        for (Long length : new Long[]{null, 100L << 20}) {
            StreamedPost huge = StreamedPost.send(url(port, "/etsi/blocking"), ITS, 100L << 20, length, Map.of());
            assertThat(huge.status()).isEqualTo(413);
            assertThat(huge.sent()).isLessThan(16L << 20);
        }
        // a declared length over the limit is answered on the headers alone, before the client sent a byte of the body
        try (RawConnection c = new RawConnection(port)) {
            c.write("POST /etsi/echo HTTP/1.1\r\nHost: x\r\nContent-Type: " + ITS + "\r\nContent-Length: 100000\r\n\r\n");
            Answer a = c.read();
            assertThat(a.status()).isEqualTo(413);
            assertThat(a.headers()).containsEntry("connection", "close");
        }
        assertThat(reached.get()).isEqualTo(before);
        byte[] full = new byte[1000];
        Arrays.fill(full, (byte) 3);
        assertThat(post(port, "/etsi/echo", ITS, full).statusCode()).as("exactly the limit").isEqualTo(200);
        // paths no limit names get vpki.http.max-request-bytes
        assertThat(post(port, "/", ITS, new byte[2001]).statusCode()).isEqualTo(413);
        assertThat(post(port, "/", ITS, new byte[2000]).statusCode()).isEqualTo(200);
    }

    @Test
    void malformedRequests_are400_andClose() throws Exception {
        int port = start();
        String[] bad = {
                "POST /etsi/echo HTTP/1.1\r\nContent-Type: " + ITS + "\r\nContent-Length: 1\r\n\r\nA", // no Host
                "POST /etsi/echo HTTP/1.1\r\nHost: x\r\nContent-Type: " + ITS
                        + "\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nA\r\n0\r\n\r\n",
                "POST /etsi/echo HTTP/1.1\r\nHost: x\r\nContent-Type: " + ITS
                        + "\r\nTransfer-Encoding: gzip, chunked\r\n\r\n1\r\nA\r\n0\r\n\r\n",
                "POST /etsi/echo HTTP/1.1\r\nHost: x\r\nX-Long: " + "a".repeat(9000) + "\r\n\r\n", // headers over 8 KiB
                "POST /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
                "NOT HTTP AT ALL\r\n\r\n"};
        for (String request : bad) {
            try (RawConnection c = new RawConnection(port)) {
                c.write(request);
                Answer a = c.read();
                assertThat(a.status()).as(request.substring(0, Math.min(160, request.length()))).isEqualTo(400);
                assertThat(a.headers()).containsEntry("connection", "close");
                assertThat(c.atEnd()).isTrue();
            }
        }
        assertThat(reached.get()).isZero();
    }

    @Test
    void keptAliveConnection_servesManyRequests_untilMaxKeepAliveRequests_thenCloses() throws Exception {
        int port = start();
        try (RawConnection c = new RawConnection(port)) {
            for (int i = 0; i < 150; i++) {
                Answer a = c.post("/etsi/echo", ITS, new byte[]{4, 5});
                assertThat(a.status()).as("request %d", i).isEqualTo(200);
                assertThat(a.headers()).as("request %d", i).doesNotContainKey("connection").containsEntry("content-length", "2");
                assertThat(a.body()).containsExactly(5, 4);
            }
        }
        AccessPointServer.Settings three = new AccessPointServer.Settings("127.0.0.1", 0, 8192, 4096, 200, Duration.ofSeconds(20),
                Duration.ofSeconds(60), 3, 64 * 1024);
        int limited = start(three, null);
        try (RawConnection c = new RawConnection(limited)) {
            assertThat(c.post("/etsi/echo", ITS, new byte[]{1, 0}).headers()).doesNotContainKey("connection");
            assertThat(c.post("/etsi/blocking", ITS, new byte[]{2, 0}).headers()).doesNotContainKey("connection");
            Answer third = c.post("/etsi/echo", ITS, new byte[]{3, 0});
            assertThat(third.body()).containsExactly(0, 3);
            assertThat(third.headers()).containsEntry("connection", "close");
            assertThat(c.atEnd()).isTrue();
        }
        try (RawConnection c = new RawConnection(port)) {
            c.write("POST /etsi/echo HTTP/1.1\r\nHost: x\r\nContent-Type: " + ITS
                    + "\r\nContent-Length: 1\r\nConnection: close\r\n\r\n\u0006");
            assertThat(c.read().headers()).containsEntry("connection", "close");
            assertThat(c.atEnd()).isTrue();
        }
    }

    @Test
    void pipelinedRequests_areAnsweredInOrder_eachAfterThePreviousAnswered() throws Exception {
        int port = start();
        try (RawConnection c = new RawConnection(port)) {
            String slow = "POST /etsi/later HTTP/1.1\r\nHost: x\r\nContent-Type: " + ITS + "\r\nContent-Length: 1\r\n\r\nL";
            String echo = "POST /etsi/echo HTTP/1.1\r\nHost: x\r\nContent-Type: " + ITS + "\r\nContent-Length: 2\r\n\r\n\u0001\u0009";
            String get = "GET /etsi/echo HTTP/1.1\r\nHost: x\r\n\r\n";
            c.write(slow + echo + slow + get);
            CompletableFuture<byte[]> first = later.poll(10, TimeUnit.SECONDS);
            assertThat(first).isNotNull();
            assertThat(reached.get()).as("the second waits for the first").isEqualTo(1);
            first.complete(new byte[]{11});
            Answer a1 = c.read();
            assertThat(a1.body()).containsExactly(11);
            // 1 first: undecryptable, a problem that keeps the connection
            Answer a2 = c.read();
            assertThat(a2.status()).isEqualTo(400);
            later.poll(10, TimeUnit.SECONDS).complete(new byte[]{33});
            assertThat(c.read().body()).containsExactly(33);
            Answer a4 = c.read();
            assertThat(a4.status()).isEqualTo(405);
            assertThat(a4.headers()).containsEntry("connection", "close");
            assertThat(c.atEnd()).isTrue();
        }
    }

    @Test
    void expectContinue_isAnsweredBeforeTheBody() throws Exception {
        int port = start();
        HttpResponse<byte[]> answer = HTTP
                .send(HttpRequest.newBuilder(url(port, "/etsi/echo")).expectContinue(true).header("Content-Type", ITS)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[]{3, 4})).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(answer.body()).containsExactly(4, 3);
    }

    @Test
    void slowHeaders_andIdleConnections_areClosed() throws Exception {
        AccessPointServer.Settings quick = new AccessPointServer.Settings("127.0.0.1", 0, 8192, 4096, 200, Duration.ofMillis(300),
                Duration.ofMillis(300), 10_000, 64 * 1024);
        int port = start(quick, null);
        try (RawConnection c = new RawConnection(port)) {
            c.write("POST /etsi/echo HTTP/1.1\r\nHost: x\r\n"); // and nothing more
            assertThat(c.atEnd()).as("closed after the header timeout").isTrue();
        }
        try (RawConnection c = new RawConnection(port)) {
            c.write("POST /etsi/echo HTTP/1.1\r\nHost: x\r\nContent-Type: " + ITS + "\r\nContent-Length: 5\r\n\r\nAB"); // 3 bytes short
            assertThat(c.atEnd()).as("closed after the body timeout").isTrue();
        }
        // a server whose header timeout no client misses, however busy the machine, and whose keep-alive timeout is short
        AccessPointServer.Settings quickIdle = new AccessPointServer.Settings("127.0.0.1", 0, 8192, 4096, 200, Duration.ofSeconds(60),
                Duration.ofMillis(300), 10_000, 64 * 1024);
        int idlePort = start(quickIdle, null);
        try (RawConnection c = new RawConnection(idlePort)) {
            assertThat(c.post("/etsi/echo", ITS, new byte[]{1, 2}).status()).isEqualTo(400);
            assertThat(c.atEnd()).as("idle past the keep-alive timeout").isTrue();
        }
        assertThat(reached.get()).isEqualTo(1);
    }

    @Test
    void aSlowRequestOnAKeptAliveConnection_isClosedAfterTheHeaderTimeout_notTheLongerKeepAliveTimeout() throws Exception {
        // the deadline of the second request is shorter than the keep-alive one set after the first answer: the
        // check scheduled then must not be the keep-alive timeout's (the connection would stay open 60 s, and
        // atEnd would give up after its 30 s)
        AccessPointServer.Settings shortHeaders = new AccessPointServer.Settings("127.0.0.1", 0, 8192, 4096, 200, Duration.ofMillis(300),
                Duration.ofSeconds(60), 10_000, 64 * 1024);
        int port = start(shortHeaders, null);
        try (RawConnection c = new RawConnection(port)) {
            assertThat(c.post("/etsi/echo", ITS, new byte[]{5}).status()).isEqualTo(200);
            // idle longer than the header timeout, so that the check the connection scheduled when it opened has
            // come and gone, and the one pending is the one set after the answer. Not a race: the connection must
            // close however long this takes; only without the pause the check under test could go unexercised
            Thread.sleep(700);
            c.write("POST /etsi/echo HTTP/1.1\r\nHost: x\r\n"); // and nothing more
            assertThat(c.atEnd()).as("closed after the header timeout").isTrue();
        }
    }

    @Test
    void beyondMaxConnections_newConnectionsAreClosedAtOnce() throws Exception {
        AccessPointServer.Settings two = new AccessPointServer.Settings("127.0.0.1", 0, 8192, 2, 200, Duration.ofSeconds(20),
                Duration.ofSeconds(60), 10_000, 64 * 1024);
        int port = start(two, null);
        try (RawConnection a = new RawConnection(port); RawConnection b = new RawConnection(port)) {
            assertThat(a.post("/etsi/echo", ITS, new byte[]{5}).status()).isEqualTo(200);
            assertThat(b.post("/etsi/echo", ITS, new byte[]{5}).status()).isEqualTo(200);
            try (RawConnection c = new RawConnection(port)) {
                assertThat(c.atEnd()).isTrue();
            }
            assertThat(registry.get("vpki.access-point.connections.refused").counter().count()).isEqualTo(1);
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            try (RawConnection c = new RawConnection(port)) {
                assertThat(c.post("/etsi/echo", ITS, new byte[]{5}).status()).isEqualTo(200);
            }
        });
    }

    @Test
    void withTls_theAccessPointsAnswerOverTls_andPlainHttpGets400InPlainText() throws Exception {
        Map<String, String> tls = TestTls.loopback().serverProperties();
        io.netty.handler.ssl.SslContext context = SslContextBuilder.forServer(
                Path.of(tls.get("spring.ssl.bundle.pem.api.keystore.certificate")).toFile(),
                Path.of(tls.get("spring.ssl.bundle.pem.api.keystore.private-key")).toFile())
                .sslProvider(SslProvider.JDK).build();
        int port = start(settings(), context);
        HttpResponse<byte[]> answer = TestTls.loopback().client()
                .send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/etsi/echo"))
                        .header("Content-Type", ITS).POST(HttpRequest.BodyPublishers.ofByteArray(new byte[]{3, 4})).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        assertThat(answer.body()).containsExactly(4, 3);
        try (RawConnection c = new RawConnection(port)) {
            c.write("POST /etsi/echo HTTP/1.1\r\nHost: x\r\nContent-Type: " + ITS + "\r\nContent-Length: 1\r\n\r\nA");
            Answer a = c.read();
            assertThat(a.status()).isEqualTo(400);
            assertThat(new String(a.body(), StandardCharsets.UTF_8)).contains("\"error\":\"TLS_REQUIRED\"");
            assertThat(c.atEnd()).isTrue();
        }
        assertThat(reached.get()).isEqualTo(1);
    }

    @Test
    void requests_areTimedPerAccessPointAndStatus() throws Exception {
        int port = start();
        for (int i = 0; i < 3; i++) {
            assertThat(post(port, "/etsi/echo", ITS, new byte[]{5}).statusCode()).isEqualTo(200);
        }
        assertThat(post(port, "/etsi/echo", "application/json", new byte[]{5}).statusCode()).isEqualTo(415);
        assertThat(post(port, "/elsewhere", ITS, new byte[]{5}).statusCode()).isEqualTo(404);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(count("echo", "200")).isEqualTo(3);
            assertThat(count("echo", "415")).isEqualTo(1);
            assertThat(count("none", "404")).isEqualTo(1);
        });
    }

    @Test
    void stop_refusesNewConnections_andLetsTheExchangesUnderWayAnswer() throws Exception {
        int port = start();
        AccessPointServer server = servers.get(0);
        try (RawConnection c = new RawConnection(port)) {
            c.write("POST /etsi/later HTTP/1.1\r\nHost: x\r\nContent-Type: " + ITS + "\r\nContent-Length: 1\r\n\r\nL");
            CompletableFuture<byte[]> pending = later.poll(10, TimeUnit.SECONDS);
            assertThat(pending).isNotNull();
            CountDownLatch stopped = new CountDownLatch(1);
            Thread stopping = new Thread(() -> {
                server.stop(Duration.ofSeconds(30));
                stopped.countDown();
            });
            stopping.start();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                try (Socket s = new Socket()) {
                    s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1000);
                    throw new AssertionError("still accepting");
                } catch (java.net.ConnectException refused) {
                    // no longer listening
                }
            });
            assertThat(stopped.getCount()).as("waits for the exchange under way").isEqualTo(1);
            pending.complete(new byte[]{8});
            Answer a = c.read();
            assertThat(a.body()).containsExactly(8);
            assertThat(a.headers()).containsEntry("connection", "close");
            assertThat(stopped.await(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    private long count(String accessPoint, String status) {
        Timer timer = registry.find("vpki.access-point.requests").tags("access-point", accessPoint, "status", status).timer();
        return timer == null ? 0 : timer.count();
    }

    record Answer(int status, Map<String, String> headers, byte[] body) {
    }

    /** One HTTP/1.1 connection over a plain socket: requests written as given, answers read one by one. */
    static final class RawConnection implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        RawConnection(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(30_000); // a bound on a hung test, never reached when the server behaves
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream());
        }

        void write(String request) throws IOException {
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        Answer post(String path, String type, byte[] body) throws IOException {
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(
                    ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + type + "\r\nContent-Length: " + body.length
                            + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            request.writeBytes(body);
            out.write(request.toByteArray());
            out.flush();
            return read();
        }

        Answer read() throws IOException {
            String status = HttpHeadLine.read(in);
            while (status.startsWith("HTTP/1.1 100")) { // an interim answer, then its empty line
                HttpHeadLine.read(in);
                status = HttpHeadLine.read(in);
            }
            Map<String, String> headers = new LinkedHashMap<>();
            for (String line = HttpHeadLine.read(in); !line.isEmpty(); line = HttpHeadLine.read(in)) {
                int colon = line.indexOf(':');
                headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
            }
            int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
            return new Answer(Integer.parseInt(status.split(" ")[1]), headers, in.readNBytes(length));
        }

        /** Whether the server closed the connection (reads until end of stream, discarding; a reset counts as closed). */
        boolean atEnd() {
            try {
                while (in.read() >= 0) {
                    // discard
                }
                return true;
            } catch (java.net.SocketTimeoutException e) {
                return false;
            } catch (IOException reset) {
                return true;
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
