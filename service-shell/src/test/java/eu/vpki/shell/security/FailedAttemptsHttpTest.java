package eu.vpki.shell.security;

import ch.qos.logback.classic.Level;
import eu.vpki.common.testing.LogCapture;
import eu.vpki.common.testing.ManualClock;
import eu.vpki.shell.ShellTestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Over real HTTP: unknown tokens from one client are limited (429, Retry-After), and the limit reaches no controller. */
@SpringBootTest(classes = ShellTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1", "vpki.security.failed-attempts.max-failures=3",
        "vpki.security.failed-attempts.window=1m"})
@Import(FailedAttemptsHttpTest.Api.class)
class FailedAttemptsHttpTest {
    static final AtomicInteger TOKEN_CHECKS = new AtomicInteger();

    @LocalServerPort
    int port;
    @Autowired
    ManualClock clock;

    @TestConfiguration
    static class Api {
        @Bean
        ManualClock clock() {
            return new ManualClock(Instant.parse("2026-11-24T10:00:00Z"));
        }

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
            return principal.getName();
        }
    }

    @Test
    void unknownTokens_areLimitedPerClient_with429AndRetryAfter_untilTheWindowEnds() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(get("Bearer guess-" + i).statusCode()).isEqualTo(401);
        }
        int checks = TOKEN_CHECKS.get();
        clock.advance(Duration.ofSeconds(20));

        HttpResponse<String> limited;
        try (LogCapture log = LogCapture.of(BearerSecurityAutoConfiguration.class)) {
            limited = get("Bearer good-token");
            assertThat(log.events(Level.INFO)).singleElement()
                    .satisfies(e -> assertThat(e.getFormattedMessage()).contains("GET /fleet/whoami refused: TOO_MANY_ATTEMPTS", "for 40 s")
                            .doesNotContain("good-token"));
        }
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("Retry-After")).contains("40");
        assertThat(limited.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(limited.body()).contains("\"error\":\"TOO_MANY_ATTEMPTS\"", "\"code\":602", "\"status\":429");
        assertThat(get("Bearer guess-4").statusCode()).isEqualTo(429);
        // refused before any token is looked at
        assertThat(TOKEN_CHECKS.get()).isEqualTo(checks);

        clock.advance(Duration.ofSeconds(40));
        HttpResponse<String> after = get("Bearer good-token");
        assertThat(after.statusCode()).isEqualTo(200);
        assertThat(after.body()).isEqualTo("op-1");
    }

    private HttpResponse<String> get(String authorization) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/fleet/whoami"))
                .header("Authorization", authorization).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
