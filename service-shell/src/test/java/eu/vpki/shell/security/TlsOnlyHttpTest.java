package eu.vpki.shell.security;

import ch.qos.logback.classic.Level;
import eu.vpki.common.testing.LogCapture;
import eu.vpki.shell.ShellTestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.Principal;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Over real plain HTTP with {@code vpki.security.require-tls} at its default (on) and no TLS on the
 * port: a valid token is refused 403 {@code TLS_REQUIRED} without being looked at, no controller runs,
 * the refusal is logged at WARN telling to rotate the token; paths of no bearer API are served.
 */
@SpringBootTest(classes = ShellTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1", "vpki.security.require-tls=true"})
@Import(TlsOnlyHttpTest.Api.class)
class TlsOnlyHttpTest {
    static final AtomicInteger TOKEN_CHECKS = new AtomicInteger();
    static final AtomicInteger CALLS = new AtomicInteger();

    @LocalServerPort
    int port;

    @TestConfiguration
    static class Api {
        @Bean
        BearerApi fleetApi() {
            return new BearerApi("fleet", List.of("/fleet/**"), t -> {
                TOKEN_CHECKS.incrementAndGet();
                return "good-token".equals(t) ? Optional.of("op-1") : Optional.empty();
            });
        }

        @Bean
        Who who() {
            return new Who();
        }
    }

    @RestController
    static class Who {
        @GetMapping("/fleet/whoami")
        String whoami(Principal principal) {
            CALLS.incrementAndGet();
            return principal.getName();
        }

        @GetMapping("/open/ping")
        String ping() {
            return "pong";
        }
    }

    @Test
    void aValidTokenOverPlainHttp_isRefusedTlsRequired_neverLookedAt_andLogged() throws Exception {
        try (LogCapture log = LogCapture.of(BearerSecurityAutoConfiguration.class)) {
            HttpResponse<String> r = get("/fleet/whoami", "Bearer good-token");

            assertThat(r.statusCode()).isEqualTo(403);
            assertThat(r.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
            assertThat(r.body()).contains("\"error\":\"TLS_REQUIRED\"").contains("\"code\":603").doesNotContain("op-1");
            assertThat(TOKEN_CHECKS.get()).as("the token was never looked at").isZero();
            assertThat(CALLS.get()).as("no controller ran").isZero();
            assertThat(log.messages(Level.WARN)).anyMatch(m -> m.contains("TLS_REQUIRED") && m.contains("rotate"));
        }
    }

    @Test
    void withoutAToken_isRefusedTheSameWay_andOtherPathsAreServed() throws Exception {
        assertThat(get("/fleet/whoami", null).body()).contains("TLS_REQUIRED");
        assertThat(get("/open/ping", null).body()).isEqualTo("pong");
        assertThat(TOKEN_CHECKS.get()).isZero();
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
