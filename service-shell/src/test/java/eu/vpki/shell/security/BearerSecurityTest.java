package eu.vpki.shell.security;

import eu.vpki.shell.ShellTestApplication;
import eu.vpki.shell.problem.ProblemTestController;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.Principal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Over real HTTP: the bearer-token filter chain in front of a protected API, and nothing in front of the rest. */
@SpringBootTest(classes = ShellTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1", "vpki.security.failed-attempts.max-failures=1000"})
@Import({BearerSecurityTest.Apis.class, ProblemTestController.class})
class BearerSecurityTest {
    @LocalServerPort
    int port;

    @TestConfiguration
    static class Apis {
        @Bean
        BearerApi fleetApi() {
            Map<String, String> tokens = Map.of("token-of-op-1", "op-1");
            return new BearerApi("fleet", List.of("/fleet", "/fleet/**"), t -> Optional.ofNullable(tokens.get(t)));
        }

        @Bean
        BearerApi disabledApi() {
            return new BearerApi("admin", List.of("/admin/**"), new BearerTokens() {
                @Override
                public Optional<String> principalOf(String token) {
                    throw new AssertionError("a disabled API never checks a token");
                }

                @Override
                public boolean enabled() {
                    return false;
                }
            });
        }

        @Bean
        Secured secured() {
            return new Secured();
        }
    }

    @RestController
    static class Secured {
        @GetMapping("/fleet/whoami")
        String whoami(Principal principal) {
            return principal.getName();
        }

        @PostMapping("/fleet/items")
        String items(@RequestBody List<Integer> items, Principal principal) {
            return principal.getName() + ":" + items.size();
        }

        @GetMapping("/admin/anything")
        String admin() {
            return "never";
        }
    }

    @Test
    void validToken_reachesTheController_asItsPrincipal() throws Exception {
        assertThat(send("GET", "/fleet/whoami", "Bearer token-of-op-1", null).body()).isEqualTo("op-1");
        assertThat(send("GET", "/fleet/whoami", "bearer   token-of-op-1 ", null).body()).isEqualTo("op-1");
        assertThat(send("POST", "/fleet/items", "Bearer token-of-op-1", "[1,2,3]").body()).isEqualTo("op-1:3");
    }

    @Test
    void missingWrongOrOtherSchemeTokens_are401Problems() throws Exception {
        for (String header : new String[]{null, "Bearer wrong", "Bearer ", "Basic b3AtMTp0b2tlbg==", "token-of-op-1"}) {
            HttpResponse<String> r = send("GET", "/fleet/whoami", header, null);
            assertThat(r.statusCode()).as(String.valueOf(header)).isEqualTo(401);
            assertThat(r.headers().firstValue("WWW-Authenticate")).contains("Bearer");
            assertThat(r.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
            assertThat(r.body()).contains("\"error\":\"UNAUTHENTICATED\"", "\"code\":600", "\"type\":\"urn:vpki:error:unauthenticated\"");
        }
    }

    @Test
    void theCallerIsRefusedBeforeTheBodyIsRead() throws Exception {
        HttpResponse<String> r = send("POST", "/fleet/items", null, "{not json at all");
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.body()).contains("UNAUTHENTICATED").doesNotContain("JSON");
    }

    @Test
    void disabledApi_is403_whateverTheToken() throws Exception {
        for (String header : new String[]{null, "Bearer token-of-op-1"}) {
            HttpResponse<String> r = send("GET", "/admin/anything", header, null);
            assertThat(r.statusCode()).isEqualTo(403);
            assertThat(r.body()).contains("\"error\":\"API_DISABLED\"", "\"code\":601");
        }
    }

    @Test
    void pathsNoApiClaims_meetNoSecurityFilter() throws Exception {
        HttpResponse<String> open = send("GET", "/test/pki/NOT_FOUND", null, null);
        assertThat(open.statusCode()).isEqualTo(404);
        assertThat(open.body()).contains("\"error\":\"NOT_FOUND\"");
        assertThat(open.headers().firstValue("X-Content-Type-Options")).isEmpty();
        assertThat(send("GET", "/fleet/whoami", null, null).headers().firstValue("X-Content-Type-Options")).contains("nosniff");
    }

    private HttpResponse<String> send(String method, String path, String authorization, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
