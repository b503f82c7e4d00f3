package eu.vpki.shell.security;

import eu.vpki.common.etsi.crypto.ApiTlsCa;
import eu.vpki.shell.ShellTestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import javax.net.ssl.SSLHandshakeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Principal;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A bearer-token API on a port that speaks TLS only, as the local cluster runs the RCA and the
 * Operator (a Spring Boot PEM SSL bundle with a certificate of an {@link ApiTlsCa}): over https, a
 * client trusting that CA is served; a plain-HTTP request with the same valid token gets no success
 * and its token is never looked at; a client that trusts another CA does not complete the handshake.
 */
@SpringBootTest(classes = ShellTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1", "vpki.security.require-tls=true", "server.ssl.bundle=api"})
@Import(BearerOverHttpsTest.Api.class)
class BearerOverHttpsTest {
    static final AtomicInteger TOKEN_CHECKS = new AtomicInteger();
    static final Path DIR;
    static final Path CA;
    static final Path OTHER_CA;

    static {
        try {
            DIR = Files.createTempDirectory("vpki-https-test-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SecureRandom random = new SecureRandom();
        Instant now = Instant.now();
        ApiTlsCa ca = ApiTlsCa.generate("test API CA", now.minusSeconds(60), Duration.ofDays(1), random);
        CA = DIR.resolve("ca.crt");
        ca.write(CA, DIR.resolve("ca.key"));
        ca.issueServer("server", List.of("127.0.0.1", "localhost"), now.minusSeconds(60), Duration.ofDays(1), random, DIR);
        OTHER_CA = DIR.resolve("other-ca.crt");
        ApiTlsCa.generate("another CA", now.minusSeconds(60), Duration.ofDays(1), random).write(OTHER_CA, DIR.resolve("other-ca.key"));
    }

    @DynamicPropertySource
    static void tls(DynamicPropertyRegistry registry) {
        registry.add("spring.ssl.bundle.pem.api.keystore.certificate", () -> "file:" + DIR.resolve("server.crt"));
        registry.add("spring.ssl.bundle.pem.api.keystore.private-key", () -> "file:" + DIR.resolve("server.key"));
    }

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
            return principal.getName();
        }
    }

    @Test
    void overHttps_aClientTrustingTheCa_isServed() throws Exception {
        HttpClient https = HttpClient.newBuilder().sslContext(ApiTlsCa.clientContext(CA)).build();
        HttpResponse<String> r = https.send(request("https", "127.0.0.1", "good-token"), HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("op-1");
        assertThat(https.send(request("https", "localhost", "good-token"), HttpResponse.BodyHandlers.ofString()).statusCode())
                .as("the DNS name in the certificate").isEqualTo(200);
    }

    @Test
    void plainHttpWithAValidToken_getsNoSuccess_andTheTokenIsNeverLookedAt() throws Exception {
        int checks = TOKEN_CHECKS.get();
        HttpResponse<String> r = HttpClient.newHttpClient().send(request("http", "127.0.0.1", "good-token"),
                HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).as("Tomcat answers plain HTTP on a TLS port itself").isEqualTo(400);
        assertThat(r.body()).doesNotContain("op-1");
        assertThat(TOKEN_CHECKS.get()).as("the request never reached the bearer filter").isEqualTo(checks);
    }

    @Test
    void aClientTrustingAnotherCa_failsTheHandshake() {
        HttpClient stranger = HttpClient.newBuilder().sslContext(ApiTlsCa.clientContext(OTHER_CA)).build();
        HttpClient jdkDefaults = HttpClient.newHttpClient();

        assertThatThrownBy(() -> stranger.send(request("https", "127.0.0.1", "good-token"), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(SSLHandshakeException.class);
        assertThatThrownBy(() -> jdkDefaults.send(request("https", "127.0.0.1", "good-token"), HttpResponse.BodyHandlers.ofString()))
                .as("the JDK's public CAs do not vouch for it").isInstanceOf(SSLHandshakeException.class);
    }

    private HttpRequest request(String scheme, String host, String token) {
        return HttpRequest.newBuilder(URI.create(scheme + "://" + host + ":" + port + "/fleet/whoami"))
                .header("Authorization", "Bearer " + token).build();
    }
}
