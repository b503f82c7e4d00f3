package eu.vpki.common.replication;

import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.RedisFixtureExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Issue #38, "A replica never serves a partial state": a state transfer that breaks off (the stream fails, the
 * transfer times out, the replica or its Redis crashes) leaves a durable marker in Redis and no applied table, so the
 * replica, after a restart too, stays out of service (health says why, {@code vpki.replication.state.incomplete} is 1)
 * until a complete snapshot is installed. Before, the restore wrote the applied table first: a replica restarted on a
 * half-restored Redis believed it had applied everything and served from part of the state. And a snapshot that lacks
 * commands this replica applied meanwhile (between choosing its provider and pausing) is refused before anything is
 * replaced: before, those commands were wiped while their watermarks stayed. Real redis-servers, real JGroups.
 */
class IncompleteStateTest {
    @RegisterExtension
    static final RedisFixtureExtension SERVERS = new RedisFixtureExtension(2);

    private static final ReplicatedKeyspace KEYSPACE = ReplicaClusterTest.KEYSPACE;
    private TestCluster cluster;

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Command put(String origin, long seq, String key) {
        return new Command(new CommandId(origin, seq), 0, List.of(new Operation.Put(key, "v" + seq)));
    }

    /** A snapshot of a state of 200 keys of origin {@code a~1} (applied up to 200), taken from {@code pool}. */
    private static byte[] snapshotOf200Keys(JedisPool pool) throws IOException {
        RedisStateMachine source = new RedisStateMachine(pool, KEYSPACE);
        List<Command> commands = new ArrayList<>();
        for (int i = 1; i <= 200; i++) {
            commands.add(put("a~1", i, "t:idx:k" + i));
        }
        source.apply(commands);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        source.writeSnapshot(out);
        return out.toByteArray();
    }

    private static void flush(JedisPool pool) {
        try (Jedis jedis = pool.getResource()) {
            jedis.flushAll();
        }
    }

    @Test
    void restoreBrokenOff_leavesTheMarkerAndNoAppliedTable_afterARestartToo() throws IOException {
        try (JedisPool pool = SERVERS.fixtures().get(0).newPool()) {
            flush(pool);
            byte[] snapshot = snapshotOf200Keys(pool);
            flush(pool);
            RedisStateMachine receiver = new RedisStateMachine(pool, KEYSPACE);
            byte[] half = Arrays.copyOf(snapshot, snapshot.length / 2);

            assertThatThrownBy(() -> receiver.restore(new ByteArrayInputStream(half), Map.of())).isInstanceOf(IOException.class);

            RedisStateMachine restarted = new RedisStateMachine(pool, KEYSPACE);
            assertThat(restarted.appliedSeqs()).as("no applied table claims what the half state lacks").isEmpty();
            assertThat(restarted.incompleteState()).as("the marker, read again after a restart").isPresent();

            restarted.restore(new ByteArrayInputStream(snapshot), Map.of());
            assertThat(restarted.incompleteState()).as("a complete snapshot removes it").isEmpty();
            assertThat(restarted.appliedSeqs()).isEqualTo(Map.of("a~1", 200L));
        }
    }

    @Test
    void snapshotWithoutWhatThisReplicaApplied_isRefusedAndChangesNothing() throws IOException {
        try (JedisPool pool = SERVERS.fixtures().get(0).newPool()) {
            flush(pool);
            byte[] snapshot = snapshotOf200Keys(pool); // a~1 up to 200
            flush(pool);
            RedisStateMachine receiver = new RedisStateMachine(pool, KEYSPACE);
            // applied here after the provider was chosen: a~1 up to 201 (and b~1), which the snapshot lacks
            List<Command> mine = new ArrayList<>();
            for (int i = 1; i <= 201; i++) {
                mine.add(put("a~1", i, "t:idx:k" + i));
            }
            mine.add(put("b~1", 1, "t:idx:b"));
            receiver.apply(mine);
            String digest = receiver.digest();

            assertThatThrownBy(() -> receiver.restore(new ByteArrayInputStream(snapshot), Map.of("a~1", 201L, "b~1", 1L)))
                    .isInstanceOf(IOException.class).hasMessageContaining("not replaced");

            assertThat(receiver.digest()).as("nothing replaced").isEqualTo(digest);
            assertThat(receiver.incompleteState()).isEmpty();
        }
    }

    /**
     * r1 restarts on a Redis that a broken-off transfer left half restored: it must not serve until it installed a
     * complete snapshot of r0's state. Before the fix it served at once from part of the state (its applied table,
     * written first, claimed everything).
     */
    @Test
    void replicaRestartedOnAHalfRestoredRedis_servesOnlyOnceItInstalledACompleteSnapshot() throws IOException {
        cluster = new TestCluster(SERVERS.fixtures(), Order.FIFO, Propagation.ASYNC);
        for (TestCluster.Member m : cluster.members()) {
            flush(m.pool);
        }
        cluster.startAll();
        List<Operation> writes = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            writes.add(new Operation.Put("t:idx:k" + i, "v" + i));
        }
        CommandId last = cluster.submitWhenServing(0, writes).token();
        for (int i = 0; i < 20; i++) {
            last = cluster.submitWhenServing(0, List.of(new Operation.SetAdd("t:set:s", "m" + i))).token();
        }
        cluster.member(1).replica().awaitApplied(last, Duration.ofSeconds(30));
        cluster.member(1).stop();
        flush(cluster.member(1).pool);
        // r1's Redis: what a transfer of r0's state that broke off half way left
        ByteArrayOutputStream full = new ByteArrayOutputStream();
        new RedisStateMachine(cluster.member(0).pool, KEYSPACE).writeSnapshot(full);
        byte[] half = Arrays.copyOf(full.toByteArray(), full.size() / 2);
        RedisStateMachine r1Redis = new RedisStateMachine(cluster.member(1).pool, KEYSPACE);
        assertThatThrownBy(() -> r1Redis.restore(new ByteArrayInputStream(half), Map.of())).isInstanceOf(IOException.class);
        String partial = r1Redis.digest();

        Replica r1 = cluster.start(1);
        Replica r0 = cluster.member(0).replica();
        String complete = r0.stateDigest();
        assertThat(partial).isNotEqualTo(complete);
        await().atMost(TestCluster.CONVERGENCE).pollInterval(Duration.ofMillis(10)).until(() -> {
            ReplicaStatus status = r1.status();
            assertThat(!status.serving() || r1.stateDigest().equals(complete))
                    .as("r1 serving with part of the state: %s", status).isTrue();
            return status.serving();
        });
        assertThat(r1.stateDigest()).isEqualTo(complete);
        assertThat(r1.hasApplied(last)).isTrue();
        assertThat(cluster.member(1).registry.get("vpki.replication.state.incomplete").gauge().value()).isZero();
    }

    /** A lone replica (one expected member) on a half-restored Redis has nobody to take a snapshot from: it stays out, and says why. */
    @Test
    void loneReplicaOnAHalfRestoredRedis_staysOutOfService_andSaysWhy() throws IOException {
        cluster = new TestCluster(SERVERS.fixtures().subList(1, 2), Order.FIFO, Propagation.ASYNC, 1);
        JedisPool pool = cluster.member(0).pool;
        flush(pool);
        byte[] snapshot = snapshotOf200Keys(pool);
        flush(pool);
        RedisStateMachine redis = new RedisStateMachine(pool, KEYSPACE);
        assertThatThrownBy(() -> redis.restore(new ByteArrayInputStream(Arrays.copyOf(snapshot, snapshot.length / 2)), Map.of()))
                .isInstanceOf(IOException.class);

        Replica replica = cluster.start(0);

        ReplicaStatus status = replica.status();
        assertThat(status.serving()).as("%s", status).isFalse();
        assertThat(status.detail()).contains("state incomplete");
        assertThat(cluster.member(0).registry.get("vpki.replication.state.incomplete").gauge().value()).isEqualTo(1);
    }
}
