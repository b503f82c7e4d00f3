package eu.vpki.shell.replication;

import eu.vpki.common.replication.ReplicatedKeyspace;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.common.testing.TestPorts;
import eu.vpki.shell.ShellTestApplication;
import eu.vpki.shell.management.ManagedCertificate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two replicas of a service, each its own Spring context with its own real Redis, in one group over real
 * JGroups: {@code /actuator/replication} on each management port shows the view, the coordinator, both
 * members' positions, the gate, the command log, Redis's memory and the declared certificates; the
 * Prometheus scrape carries the gauges of the same figures; a replica left alone says why its gate is closed.
 */
class ReplicationEndpointOverHttpTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant CERTIFICATE_END = Instant.parse("2099-01-01T00:00:00Z");
    private static final List<RedisFixture> REDIS = List.of(RedisFixture.start(), RedisFixture.start());

    @TestConfiguration
    static class Fleet {
        @Bean
        ReplicatedKeyspace testKeyspace() {
            return new ReplicatedKeyspace(List.of("t:"), ReplicatedKeyspace.DEFAULT_APPLIED_TABLE_KEY);
        }

        @Bean
        ManagedCertificate testAuthorityCertificate() {
            return new ManagedCertificate("test-authority", "test.example", CERTIFICATE_END);
        }
    }

    @AfterAll
    static void stopRedis() {
        REDIS.forEach(RedisFixture::stop);
    }

    @Test
    void everyReplicaReportsTheGroup_itsPositions_itsGate_andItsCertificates_onItsManagementPort() {
        int[] ports = {TestPorts.free(), TestPorts.free()};
        String cluster = "shell-status-" + ports[0];
        String hosts = "127.0.0.1[" + ports[0] + "],127.0.0.1[" + ports[1] + "]";
        List<ConfigurableApplicationContext> replicas = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                SpringApplicationBuilder builder = new SpringApplicationBuilder(ShellTestApplication.class, Fleet.class);
                Map.of("server.address", "127.0.0.1", "server.port", "0",
                        "vpki.redis.url", REDIS.get(i).url(),
                        "vpki.replication.cluster-name", cluster,
                        "vpki.replication.replica-id", "s" + i,
                        "vpki.replication.bind-port", Integer.toString(ports[i]),
                        "vpki.replication.initial-hosts", hosts,
                        "vpki.replication.join-timeout", "300ms",
                        "vpki.replication.expected-members", "2")
                        .forEach((key, value) -> builder.properties(key + "=" + value));
                replicas.add(builder.run());
            }
            int management0 = managementPort(replicas.get(0));
            int management1 = managementPort(replicas.get(1));

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                JsonNode report = json(get(management1, "/actuator/replication"));
                JsonNode replication = report.get("replication");
                assertThat(replication.get("cluster").asText()).isEqualTo(cluster);
                assertThat(replication.get("status").get("state").asText()).isEqualTo("SERVING");
                assertThat(replication.get("status").get("replicaId").asText()).isEqualTo("s1");
                assertThat(replication.get("coordinator").asText()).isEqualTo("s0");
                assertThat(replication.get("view").asText()).startsWith("[s0|");
                assertThat(replication.get("members")).hasSize(2);
                assertThat(replication.get("members").get(0).get("replicaId").asText()).isEqualTo("s0");
                assertThat(replication.get("members").get(0).get("coordinator").asBoolean()).isTrue();
                assertThat(replication.get("members").get(1).get("self").asBoolean()).isTrue();
                for (JsonNode member : replication.get("members")) {
                    assertThat(member.get("serving").asBoolean()).isTrue();
                    assertThat(member.get("behind").asLong()).isZero();
                }
                assertThat(replication.get("redis").get("usedBytes").asLong()).isPositive();
                assertThat(replication.get("takenAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
                JsonNode certificate = report.get("certificates").get(0);
                assertThat(certificate.get("name").asText()).isEqualTo("test-authority");
                assertThat(certificate.get("notAfter").asText()).isEqualTo("2099-01-01T00:00:00Z");
                assertThat(certificate.get("remainingSeconds").asLong()).isPositive();
            });
            String scrape = get(management0, "/actuator/prometheus").body();
            assertThat(scrape).contains("vpki_replication_state{", "state=\"serving\"", "vpki_replication_coordinator{",
                    "vpki_replication_expected_members{", "vpki_replication_log_commands{", "vpki_redis_memory_used_bytes{",
                    "vpki_redis_memory_max_bytes{", "vpki_certificate_expiry_seconds{certificate=\"test-authority\"");
            assertThat(line(scrape, "vpki_replication_coordinator{")).endsWith(" 1.0");

            replicas.remove(1).close();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                JsonNode alone = json(get(management0, "/actuator/replication")).get("replication");
                assertThat(alone.get("status").get("state").asText()).isEqualTo("MINORITY");
                assertThat(alone.get("status").get("detail").asText()).contains("no majority");
                assertThat(alone.get("members")).hasSize(1);
            });
        } finally {
            replicas.forEach(ConfigurableApplicationContext::close);
        }
    }

    private static String line(String scrape, String prefix) {
        return scrape.lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
    }

    private static int managementPort(ConfigurableApplicationContext context) {
        return context.getEnvironment().getProperty("local.management.port", Integer.class);
    }

    private static JsonNode json(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
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
}
