package eu.vpki.shell.etsi;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.testing.LogCapture;
import eu.vpki.common.testing.StreamedPost;
import eu.vpki.shell.ShellTestApplication;
import eu.vpki.shell.limits.RequestBodyLimit;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Over real HTTP (Tomcat): an access point servlet answers the raw bytes its exchange returns, and every
 * answer that cannot be an ETSI response is the services' problem; the request body limit still refuses an
 * oversize body (413, declared or chunked) before the exchange sees it; an access point at {@code /} takes
 * the context root only, never the paths Spring MVC serves.
 */
@SpringBootTest(classes = ShellTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "vpki.http.max-request-bytes=2000"})
@Import(AccessPointServletTest.AccessPoints.class)
class AccessPointServletTest {
    static final AtomicInteger REACHED = new AtomicInteger();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry registry;

    @TestConfiguration
    static class AccessPoints {
        @Bean
        RequestBodyLimit etsiLimit() {
            return new RequestBodyLimit("test.etsi-bytes", List.of("/etsi/echo"), 1000);
        }

        /**
         * Answers the body reversed; a body starting with 1 is refused as undecryptable, with 2 fails unexpectedly,
         * with 7 is not served by a replica out of service.
         */
        @Bean
        ServletRegistrationBean<AccessPointServlet> echo(MeterRegistry registry) {
            return AccessPointServlet.registration("echo", "/etsi/echo", "an EchoRequest", body -> {
                REACHED.incrementAndGet();
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
            }, registry);
        }

        @Bean
        ServletRegistrationBean<AccessPointServlet> root(MeterRegistry registry) {
            return AccessPointServlet.registration("root", "/", "a RootRequest", body -> new byte[]{42}, registry);
        }

        @Bean
        Mvc mvc() {
            return new Mvc();
        }
    }

    @RestController
    static class Mvc {
        @GetMapping("/mvc/still-here")
        String here() {
            return "here";
        }
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private HttpResponse<byte[]> post(String path, String type, byte[] body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(url(path)).header("Content-Type", type).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String text(HttpResponse<byte[]> response) {
        return new String(response.body(), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void itsRequest_isAnswered200_itsResponse_withTheExchangesBytes() throws Exception {
        HttpResponse<byte[]> answer = post("/etsi/echo", "application/x-its-request", new byte[]{5, 6, 7});
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/x-its-response");
        assertThat(answer.body()).containsExactly(7, 6, 5);
        // the media type in another case and with a parameter is the same media type
        assertThat(post("/etsi/echo", "Application/X-ITS-Request; charset=binary", new byte[]{8, 9}).body()).containsExactly(9, 8);
    }

    @Test
    void refusalsOfTheExchange_areProblems_withTheCodesStatus_andNoInternalDetail() throws Exception {
        HttpResponse<byte[]> undecryptable = post("/etsi/echo", "application/x-its-request", new byte[]{1, 0});
        assertThat(undecryptable.statusCode()).isEqualTo(400);
        assertThat(undecryptable.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(text(undecryptable)).contains("\"type\":\"urn:vpki:error:malformed-encoding\"", "\"code\":100", "\"error\":\"MALFORMED_ENCODING\"",
                "cannot decrypt this", "\"instance\":\"/etsi/echo\"");

        HttpResponse<byte[]> failed = post("/etsi/echo", "application/x-its-request", new byte[]{2});
        assertThat(failed.statusCode()).isEqualTo(500);
        assertThat(text(failed)).contains("\"error\":\"INTERNAL_ERROR\"").doesNotContain("internal secret");
    }

    @Test
    void aReplicaOutOfService_is503_soThatTheCallerTriesAnotherReplica_loggedWithoutAStackTrace() throws Exception {
        try (LogCapture log = LogCapture.of(AccessPointServlet.class)) {
            HttpResponse<byte[]> notServed = post("/etsi/echo", "application/x-its-request", new byte[]{7});

            assertThat(notServed.statusCode()).isEqualTo(503);
            assertThat(notServed.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(text(notServed)).contains("\"error\":\"REPLICATION_UNAVAILABLE\"", "\"code\":703");
            assertThat(log.events(ch.qos.logback.classic.Level.WARN)).singleElement()
                    .satisfies(e -> assertThat(e.getThrowableProxy()).isNull());
            assertThat(log.events(ch.qos.logback.classic.Level.ERROR)).isEmpty();
        }
    }

    @Test
    void wrongContentType_is415_andWrongMethod_is405WithAllow_neitherReachesTheExchange() throws Exception {
        int reached = REACHED.get();
        HttpResponse<byte[]> json = post("/etsi/echo", "application/json", "{}".getBytes());
        assertThat(json.statusCode()).isEqualTo(415);
        assertThat(text(json)).contains("\"error\":\"UNEXPECTED_CONTENT\"", "POST an EchoRequest as application/x-its-request, not application/json");
        HttpResponse<byte[]> none = HTTP.send(HttpRequest.newBuilder(url("/etsi/echo")).POST(HttpRequest.BodyPublishers.ofByteArray(new byte[]{1}))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(none.statusCode()).isEqualTo(415);

        HttpResponse<byte[]> get = HTTP.send(HttpRequest.newBuilder(url("/etsi/echo")).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Allow")).hasValue("POST");
        assertThat(text(get)).contains("\"status\":405", "\"error\":\"INVALID_ARGUMENT\"");
        assertThat(REACHED.get()).isEqualTo(reached);
    }

    @Test
    void overTheLimit_is413_declaredOrChunked_connectionClosed_andNeverReachesTheExchange() throws Exception {
        int reached = REACHED.get();
        for (Long length : new Long[]{null, 1001L}) {
            StreamedPost a = StreamedPost.send(url("/etsi/echo"), "application/x-its-request", 1001, length, Map.of());
            assertThat(a.status()).as("Content-Length " + length).isEqualTo(413);
            assertThat(a.headers().get("connection")).isEqualTo("close");
            assertThat(a.body()).contains("\"code\":102", "\"error\":\"OVERSIZE_INPUT\"", "test.etsi-bytes");
        }
        // a chunked body far over the limit is cut off, not drained
        StreamedPost huge = StreamedPost.send(url("/etsi/echo"), "application/x-its-request", 100L << 20, null, Map.of());
        assertThat(huge.status()).isEqualTo(413);
        assertThat(huge.sent()).isLessThan(16L << 20);
        assertThat(REACHED.get()).isEqualTo(reached);
        // exactly the limit is accepted
        byte[] full = new byte[1000];
        Arrays.fill(full, (byte) 3);
        assertThat(post("/etsi/echo", "application/x-its-request", full).statusCode()).isEqualTo(200);
    }

    @Test
    void accessPointAtTheRoot_takesTheRootOnly() throws Exception {
        assertThat(post("/", "application/x-its-request", new byte[]{1}).body()).containsExactly(42);
        HttpResponse<String> mvc = HTTP.send(HttpRequest.newBuilder(url("/mvc/still-here")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(mvc.statusCode()).isEqualTo(200);
        assertThat(mvc.body()).isEqualTo("here");
        HttpResponse<String> unknown = HTTP.send(HttpRequest.newBuilder(url("/nothing/here")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("\"error\":\"NOT_FOUND\"");
    }

    @Test
    void accessPoints_areTimedByTheirOwnTimer_andLeftOutOfHttpServerRequests_whichOtherPathsKeep() throws Exception {
        double before = httpServerRequests();
        long answered = accessPointRequests("200");
        long unsupported = accessPointRequests("415");
        for (int i = 0; i < 3; i++) {
            assertThat(post("/etsi/echo", "application/x-its-request", new byte[]{5}).statusCode()).isEqualTo(200);
        }
        assertThat(post("/etsi/echo", "application/json", new byte[]{5}).statusCode()).isEqualTo(415);
        assertThat(HTTP.send(HttpRequest.newBuilder(url("/mvc/still-here")).GET().build(), HttpResponse.BodyHandlers.ofString())
                .statusCode()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(10)).until(() -> httpServerRequests() >= before + 1);
        assertThat(httpServerRequests()).as("only the Spring MVC request is observed").isEqualTo(before + 1);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(accessPointRequests("200")).isEqualTo(answered + 3);
            assertThat(accessPointRequests("415")).isEqualTo(unsupported + 1);
        });
    }

    /** Tomcat's default (100 requests per connection) made every client reconnect every 100 ATs: no longer. */
    @Test
    void keptAliveConnection_servesManyMoreThanTomcatsDefaultOf100Requests() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            for (int i = 0; i < 150; i++) {
                out.write(("POST /etsi/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-its-request\r\n"
                        + "Content-Length: 2\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(new byte[]{4, 5});
                out.flush();
                List<String> head = new ArrayList<>();
                for (String line = line(in); !line.isEmpty(); line = line(in)) {
                    head.add(line.toLowerCase(Locale.ROOT));
                }
                assertThat(head.get(0)).as("request %d", i).startsWith("http/1.1 200");
                assertThat(head).as("request %d", i).doesNotContain("connection: close").contains("content-length: 2");
                assertThat(in.readNBytes(2)).containsExactly(5, 4);
            }
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("connection closed after " + line);
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    private double httpServerRequests() {
        return registry.find("http.server.requests").timers().stream().mapToDouble(Timer::count).sum();
    }

    private long accessPointRequests(String status) {
        Timer timer = registry.find("vpki.access-point.requests").tags("access-point", "echo", "status", status).timer();
        return timer == null ? 0 : timer.count();
    }
}
