package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.RedisFixtureExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A replica whose Redis nears its {@code maxmemory} (noeviction) refuses new writes with {@link ErrorCode#STORAGE_FULL}
 * before sending them, says why in its status, and stays in the group; once memory is freed it takes writes again.
 * Before: the write was applied up to the limit, then Redis refused the apply ("OOM command not allowed"), the replica
 * answered {@code APPLY_FAILED}, left the group and rejoined a second later as a new origin, reporting itself serving
 * with a full Redis, to leave again at the next write.
 */
class RedisMemoryLimitTest {
    @RegisterExtension
    static final RedisFixtureExtension SERVERS = new RedisFixtureExtension(2);

    private TestCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
        for (int i = 0; i < 2; i++) {
            try (Jedis jedis = SERVERS.fixtures().get(i).connect()) {
                jedis.configSet("maxmemory", "0");
                jedis.flushAll();
            }
        }
    }

    /**
     * Another origin's commands reach a replica whose Redis is full (its own writes are refused before they are sent, but
     * what the group writes still arrives): Redis refuses to apply them. Before, the replica failed, left the group and
     * rejoined as a new origin, to fail again at the next command. Now it keeps the commands, stays in the group with its
     * origin, says why it does not serve, and applies everything once memory is freed.
     */
    @Test
    void commandsOfOthersThatTheFullRedisRefuses_waitForRoom_andTheReplicaNeverLeaves() throws Exception {
        for (int i = 0; i < 2; i++) {
            SERVERS.fixtures().get(i).flushAll();
        }
        cluster = new TestCluster(SERVERS.fixtures(), Order.FIFO, Propagation.ASYNC, 2);
        cluster.startAll();
        cluster.awaitServing(0, 1);
        Replica r1 = cluster.member(1).replica();
        String origin = r1.origin();
        try (Jedis jedis = SERVERS.fixtures().get(1).connect()) {
            jedis.configSet("maxmemory", Long.toString(usedMemory(jedis))); // full: the next write is refused
        }
        CommandId last = null;
        for (int i = 0; i < 20; i++) {
            last = cluster.submitWhenServing(0, List.of(new Operation.Put("t:idx:big" + i, "y".repeat(20_000)))).token();
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> r1.status().detail().contains("refuses writes"));
        assertThat(r1.status().serving()).isFalse();
        assertThat(r1.status().detail()).contains("OOM");
        assertThat(r1.origin()).as("it never left the group").isEqualTo(origin);

        try (Jedis jedis = SERVERS.fixtures().get(1).connect()) {
            jedis.configSet("maxmemory", "0");
        }
        CommandId lastSeen = last;
        await().atMost(Duration.ofSeconds(30)).until(() -> r1.hasApplied(lastSeen) && r1.status().serving());
        assertThat(r1.origin()).isEqualTo(origin);
        assertThat(r1.stateDigest()).isEqualTo(cluster.member(0).replica().stateDigest());
    }

    @Test
    void writeNearTheMemoryLimit_isRefusedWithStorageFull_nothingIsWritten_andTheReplicaStaysInTheGroup() throws Exception {
        SERVERS.fixtures().get(0).flushAll();
        cluster = new TestCluster(SERVERS.fixtures(), Order.FIFO, Propagation.ASYNC, 1);
        cluster.startAll();
        Replica replica = cluster.member(0).replica();
        for (int i = 0; i < 20; i++) {
            replica.submitAndWait(List.of(new Operation.Put("t:idx:k" + i, "v" + i)), Duration.ofSeconds(10));
        }
        String origin = replica.origin();
        try (Jedis jedis = SERVERS.fixtures().get(0).connect()) {
            // something else fills this Redis (a key outside the replicated state), to 97 % of its limit
            String value = "x".repeat(10_000);
            for (int i = 0; i < 400; i++) { // small values: no 4 MB query buffer counted in used_memory meanwhile
                jedis.set("filler" + i, value);
            }
            jedis.configSet("maxmemory", Long.toString((long) (usedMemory(jedis) / 0.97)));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> replica.status().detail().contains("writes refused"));

        assertThatThrownBy(() -> replica.submitAndWait(List.of(new Operation.Put("t:idx:refused", "v")), Duration.ofSeconds(10)))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(PkiException.class)
                .satisfies(e -> assertThat(((PkiException) e).code()).isEqualTo(ErrorCode.STORAGE_FULL))
                .hasMessageContaining("maxmemory");

        assertThat(cluster.member(0).exists("t:idx:refused")).as("nothing written").isFalse();
        for (int i = 0; i < 20; i++) {
            assertThat(cluster.member(0).exists("t:idx:k" + i)).as("acknowledged write " + i).isTrue();
        }
        ReplicaStatus status = replica.status();
        assertThat(status.state()).as("reads are still served").isEqualTo(ReplicaStatus.State.SERVING);
        assertThat(status.detail()).contains("writes refused").contains("maxmemory");
        assertThat(replica.origin()).as("it never left the group").isEqualTo(origin);

        try (Jedis jedis = SERVERS.fixtures().get(0).connect()) {
            for (int i = 0; i < 400; i++) {
                jedis.del("filler" + i);
            }
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> !replica.status().detail().contains("writes refused"));
        replica.submitAndWait(List.of(new Operation.Put("t:idx:after", "v")), Duration.ofSeconds(10));
        assertThat(cluster.member(0).exists("t:idx:after")).isTrue();
        assertThat(replica.origin()).isEqualTo(origin);
    }

    private static long usedMemory(Jedis jedis) {
        return Long.parseLong(jedis.info("memory").lines().filter(l -> l.startsWith("used_memory:")).findFirst().orElseThrow()
                .substring("used_memory:".length()).strip());
    }
}
