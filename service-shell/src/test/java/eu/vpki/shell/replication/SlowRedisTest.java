package eu.vpki.shell.replication;

import eu.vpki.common.redis.RedisServer;
import eu.vpki.common.redis.RedisServerBinary;
import eu.vpki.common.replication.Acknowledgement;
import eu.vpki.common.replication.Operation;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.replication.ReplicaStatus;
import eu.vpki.common.replication.ReplicatedKeyspace;
import eu.vpki.common.testing.TestPorts;
import eu.vpki.shell.ShellTestApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A slow Redis is not a dead one (issue 38: an AOF rewrite stalled a replica's Redis past the pool's fixed 2 s socket
 * timeout, "Read timed out", and the replica left the group). A real redis-server, with a password, is stopped
 * ({@code kill -STOP}) for longer than that: with the default {@code vpki.redis.*} timeouts the replica stays in the
 * group as the same origin, the write sent meanwhile is acknowledged once Redis resumes, and the health check that
 * waited reports Redis slow, not lost.
 */
@SpringBootTest(classes = ShellTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(SlowRedisTest.Fleet.class)
class SlowRedisTest {
    /** Longer than the former fixed socket timeout (2 s), well inside the default read timeout (15 s). */
    private static final Duration PAUSE = Duration.ofSeconds(4);
    private static final RedisServer REDIS = start();

    @Autowired
    Replica replica;
    @Autowired
    RedisHealthIndicator redisHealth;

    @TestConfiguration
    static class Fleet {
        @Bean
        ReplicatedKeyspace testKeyspace() {
            return new ReplicatedKeyspace(List.of("t:"), ReplicatedKeyspace.DEFAULT_APPLIED_TABLE_KEY);
        }
    }

    private static RedisServer start() {
        String window = System.getProperty("vpki.test.redis-ports");
        RedisServer.Options options = RedisServer.Options.ephemeral().withPassword("slow-redis-pw");
        return RedisServer.start(RedisServerBinary.locate(),
                window == null || window.isBlank() ? options : options.onPort(TestPorts.freeIn(window)));
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        int jgroups = TestPorts.free();
        Path password = Files.createTempFile("redis-password", ".txt");
        Files.writeString(password, "slow-redis-pw\n");
        registry.add("server.address", () -> "127.0.0.1");
        registry.add("vpki.redis.url", REDIS::url);
        registry.add("vpki.redis.password-file", password::toString);
        // the health check waits for the whole pause here, to see what it reports once Redis answers
        registry.add("vpki.redis.health-timeout", () -> "30s");
        registry.add("vpki.replication.cluster-name", () -> "slow-redis-" + jgroups);
        registry.add("vpki.replication.replica-id", () -> "slow-" + jgroups);
        registry.add("vpki.replication.bind-port", () -> Integer.toString(jgroups));
        registry.add("vpki.replication.initial-hosts", () -> "127.0.0.1[" + jgroups + "]");
        registry.add("vpki.replication.join-timeout", () -> "300ms");
        registry.add("vpki.replication.expected-members", () -> "1");
    }

    @AfterAll
    static void stopRedis() {
        REDIS.stop();
    }

    @Test
    void redisStoppedForSeconds_replicaStaysInTheGroup_andServesAgainOnceItResumes() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> replica.status().serving());
        String origin = replica.origin();
        replica.submitAndWait(List.of(new Operation.Put("t:before", "1")), Duration.ofSeconds(10));

        CompletableFuture<Acknowledgement> write;
        CompletableFuture<Health> health;
        signal("STOP");
        try {
            long stopped = System.nanoTime();
            write = replica.submit(List.of(new Operation.Put("t:during", "2")));
            health = CompletableFuture.supplyAsync(redisHealth::health);
            // the pause itself: Redis is stopped whatever this thread does meanwhile, so no race is won or lost here
            await().pollDelay(PAUSE).atMost(PAUSE.plusSeconds(5)).until(() -> System.nanoTime() - stopped >= PAUSE.toNanos());
            assertThat(replica.status().state()).as("not failed while Redis is stopped").isNotEqualTo(ReplicaStatus.State.FAILED);
        } finally {
            signal("CONT");
        }

        write.get(60, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(60)).until(() -> replica.status().serving());
        assertThat(replica.origin()).as("the replica never left the group (a rejoin is a new origin)").isEqualTo(origin);
        replica.submitAndWait(List.of(new Operation.Put("t:after", "3")), Duration.ofSeconds(10));

        Health slow = health.get(60, TimeUnit.SECONDS);
        assertThat(slow.getStatus()).as(slow.toString()).isEqualTo(Status.UP);
        assertThat(slow.getDetails()).containsEntry("slow", true);
        assertThat((Long) slow.getDetails().get("pingMillis")).isGreaterThanOrEqualTo(PAUSE.toMillis() - 500);
        Health now = redisHealth.health();
        assertThat(now.getStatus()).isEqualTo(Status.UP);
    }

    private static void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(REDIS.pid())).inheritIO().start();
            assertThat(kill.waitFor()).as("kill -" + signal).isZero();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
