package eu.vpki.shell.limits;

import eu.vpki.common.testing.StreamedPost;
import eu.vpki.shell.ShellTestApplication;
import eu.vpki.shell.security.BearerApi;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Over real HTTP: body limits per path, whatever the framing, before authentication and before anything buffers the body. */
@SpringBootTest(classes = ShellTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1", "vpki.http.max-request-bytes=2000"})
@Import(RequestBodyLimitTest.Endpoints.class)
class RequestBodyLimitTest {
    static final AtomicInteger REACHED = new AtomicInteger();

    @LocalServerPort
    int port;

    @TestConfiguration
    static class Endpoints {
        @Bean
        RequestBodyLimit rawLimit() {
            return new RequestBodyLimit("test.raw-bytes", List.of("/raw/**"), 1000);
        }

        @Bean
        BearerApi securedApi() {
            return new BearerApi("secured", List.of("/secured/**"), t -> "t".equals(t) ? Optional.of("op") : Optional.empty());
        }

        @Bean
        Receivers receivers() {
            return new Receivers();
        }
    }

    @RestController
    static class Receivers {
        @PostMapping(path = "/raw/in", consumes = "application/octet-stream")
        String raw(@RequestBody byte[] body) {
            REACHED.incrementAndGet();
            return "raw " + body.length;
        }

        @PostMapping(path = "/json/in", consumes = "application/json")
        String json(@RequestBody List<String> items) {
            REACHED.incrementAndGet();
            return "json " + items.size();
        }

        @PostMapping(path = "/secured/in", consumes = "application/json")
        String secured(@RequestBody List<String> items) {
            REACHED.incrementAndGet();
            return "secured " + items.size();
        }
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    @Test
    void withinTheLimit_reachesTheController_chunkedOrNot() throws Exception {
        assertThat(StreamedPost.send(url("/raw/in"), "application/octet-stream", 1000, null, Map.of()).body()).isEqualTo("raw 1000");
        assertThat(StreamedPost.send(url("/raw/in"), "application/octet-stream", 1000, 1000L, Map.of()).body()).isEqualTo("raw 1000");
        HttpResponse<String> json = HttpClient.newHttpClient().send(HttpRequest.newBuilder(url("/json/in"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("[\"a\",\"b\"]")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(json.body()).isEqualTo("json 2");
    }

    @Test
    void overThePathsLimit_is413_chunkedOrDeclared_andNeverReachesTheController() throws Exception {
        int reached = REACHED.get();
        for (Long length : new Long[]{null, 1001L}) {
            StreamedPost a = StreamedPost.send(url("/raw/in"), "application/octet-stream", 1001, length, Map.of());
            assertThat(a.status()).isEqualTo(413);
            assertThat(a.headers().get("connection")).isEqualTo("close");
            assertThat(a.body()).contains("\"code\":102", "\"error\":\"OVERSIZE_INPUT\"", "test.raw-bytes");
        }
        // JSON read by Jackson from a chunked stream: cut off at the default limit
        StreamedPost json = StreamedPost.send(url("/json/in"), "application/json", "[\"", 100L << 20, null, Map.of());
        assertThat(json.status()).isEqualTo(413);
        assertThat(json.body()).contains("OVERSIZE_INPUT", "vpki.http.max-request-bytes");
        assertThat(json.sent()).isLessThan(16L << 20);
        assertThat(REACHED.get()).isEqualTo(reached);
    }

    @Test
    void declaredOversize_isRefusedBeforeAuthentication_chunkedAfterIt() throws Exception {
        assertThat(StreamedPost.send(url("/secured/in"), "application/json", 3000, 3000L, Map.of()).status()).isEqualTo(413);
        assertThat(StreamedPost.send(url("/secured/in"), "application/json", 3000, null, Map.of()).status()).isEqualTo(401);
        assertThat(
                StreamedPost.send(url("/secured/in"), "application/json", "[\"", 3000, null, Map.of("Authorization", "Bearer t")).status())
                .isEqualTo(413);
    }
}
