package eu.vpki.shell.replication;

import eu.vpki.common.replication.ReplicatedKeyspace;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.common.testing.TestPorts;
import eu.vpki.shell.ShellTestApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A service with a real one-member replica and its real Redis, over real HTTP: health and metrics on
 * the management port only; a replica without a majority, and one whose Redis died, are OUT_OF_SERVICE (503).
 */
@SpringBootTest(classes = ShellTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(ReplicaHealthOverHttpTest.Fleet.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicaHealthOverHttpTest {
    private static final RedisFixture REDIS = RedisFixture.start();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;
    @LocalManagementPort
    int managementPort;

    @TestConfiguration
    static class Fleet {
        @Bean
        ReplicatedKeyspace testKeyspace() {
            return new ReplicatedKeyspace(List.of("t:"), ReplicatedKeyspace.DEFAULT_APPLIED_TABLE_KEY);
        }
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        replication(freePort(), 1).forEach((key, value) -> registry.add(key, () -> value));
    }

    private static java.util.Map<String, String> replication(int jgroups, int expectedMembers) {
        return java.util.Map.of("server.address", "127.0.0.1",
                "vpki.redis.url", REDIS.url(),
                "vpki.replication.cluster-name", "shell-health-" + jgroups,
                "vpki.replication.replica-id", "health-" + jgroups,
                "vpki.replication.bind-port", Integer.toString(jgroups),
                "vpki.replication.initial-hosts", "127.0.0.1[" + jgroups + "]",
                "vpki.replication.join-timeout", "300ms",
                "vpki.replication.expected-members", Integer.toString(expectedMembers));
    }

    @AfterAll
    static void stopRedis() {
        REDIS.stop();
    }

    @Test
    @Order(1)
    void healthAndMetrics_areOnTheManagementPortOnly() {
        HttpResponse<String> health = get(managementPort, "/actuator/health");
        assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
        assertThat(health.body()).contains("\"status\":\"UP\"", "\"replica\"", "\"state\":\"serving\"", "\"redis\"", "PONG");
        assertThat(get(managementPort, "/actuator/prometheus").body()).contains("vpki_replication");

        for (String path : List.of("/actuator/health", "/actuator/prometheus", "/actuator")) {
            HttpResponse<String> publicAnswer = get(port, path);
            assertThat(publicAnswer.statusCode()).as(path).isEqualTo(404);
            assertThat(publicAnswer.body()).contains("\"error\":\"NOT_FOUND\"");
        }
    }

    @Test
    @Order(2)
    void replicaWithoutAMajority_isOutOfService() {
        SpringApplicationBuilder second = new SpringApplicationBuilder(ShellTestApplication.class, Fleet.class);
        replication(freePort(), 3).forEach((key, value) -> second.properties(key + "=" + value));
        try (ConfigurableApplicationContext minority = second.properties("server.port=0").run()) {
            int management = minority.getEnvironment().getProperty("local.management.port", Integer.class);
            HttpResponse<String> health = get(management, "/actuator/health");
            assertThat(health.statusCode()).as(health.body()).isEqualTo(503);
            assertThat(health.body()).contains("\"status\":\"OUT_OF_SERVICE\"", "\"state\":\"minority\"", "no majority",
                    "\"expectedMembers\":3");
        }
    }

    @Test
    @Order(3)
    void replicaWhoseRedisDied_isOutOfService() {
        REDIS.kill();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            HttpResponse<String> health = get(managementPort, "/actuator/health");
            assertThat(health.statusCode()).as(health.body()).isEqualTo(503);
            assertThat(health.body()).contains("\"status\":\"OUT_OF_SERVICE\"", "no answer from");
        });
    }

    private static HttpResponse<String> get(int port, String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() {
        return TestPorts.free();
    }
}
