package eu.vpki.common.replication;

import eu.vpki.common.etsi.crypto.DeploymentCa;
import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.RedisFixtureExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue #38, "A replica never serves a partial state": a state transfer that breaks off (the stream fails, the
 * transfer times out, the replica or its Redis crashes) leaves a durable marker in Redis and no applied table, so the
 * replica, after a restart too, stays out of service (health says why, {@code vpki.replication.state.incomplete} is 1)
 * until a complete snapshot is installed. Before, the restore wrote the applied table first: a replica restarted on a
 * half-restored Redis believed it had applied everything and served from part of the state. And a snapshot that lacks
 * commands this replica applied meanwhile (between choosing its provider and pausing) is refused before anything is
 * replaced ({@link StateTransferTest}). Real redis-servers, real JGroups.
 */
class IncompleteStateTest {
    @RegisterExtension
    static final RedisFixtureExtension SERVERS = new RedisFixtureExtension(2);

    private static final ReplicatedKeyspace KEYSPACE = ReplicaClusterTest.KEYSPACE;
    private static final String PASSWORD = "test-store-password";
    private TestCluster cluster;
    @TempDir
    Path dir;

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Command put(String origin, long seq, String key) {
        return new Command(new CommandId(origin, seq), 0, List.of(new Operation.Put(key, "v" + seq)));
    }

    /** The pages (of about 1 kB: several) of a state of 200 keys of origin {@code a~1} (applied up to 200), read from {@code pool}. */
    private static List<SnapshotPage> snapshotOf200Keys(JedisPool pool) {
        RedisStateMachine source = new RedisStateMachine(pool, KEYSPACE);
        List<Command> commands = new ArrayList<>();
        for (int i = 1; i <= 200; i++) {
            commands.add(put("a~1", i, "t:idx:k" + i));
        }
        source.apply(commands);
        List<SnapshotPage> pages = SnapshotPages.read(source, 1_024);
        assertThat(pages).hasSizeGreaterThan(2);
        return pages;
    }

    private static void flush(JedisPool pool) {
        try (Jedis jedis = pool.getResource()) {
            jedis.flushAll();
        }
    }

    @Test
    void transferBrokenOff_leavesTheMarkerAndNoAppliedTable_afterARestartToo() {
        try (JedisPool pool = SERVERS.fixtures().get(0).newPool()) {
            flush(pool);
            List<SnapshotPage> snapshot = snapshotOf200Keys(pool);
            flush(pool);
            RedisStateMachine receiver = new RedisStateMachine(pool, KEYSPACE);

            SnapshotPages.install(receiver, snapshot, snapshot.size() / 2);

            RedisStateMachine restarted = new RedisStateMachine(pool, KEYSPACE);
            assertThat(restarted.appliedSeqs()).as("no applied table claims what the half state lacks").isEmpty();
            assertThat(restarted.incompleteState()).as("the marker, read again after a restart").isPresent();

            SnapshotPages.install(restarted, snapshot, snapshot.size());
            assertThat(restarted.incompleteState()).as("a complete snapshot removes it").isEmpty();
            assertThat(restarted.appliedSeqs()).isEqualTo(Map.of("a~1", 200L));
        }
    }

    /**
     * r1 restarts on a Redis that a broken-off transfer left half restored: it must not serve until it installed a
     * complete snapshot of r0's state. Before the fix it served at once from part of the state (its applied table,
     * written first, claimed everything).
     */
    @ParameterizedTest(name = "TLS and sealed requests: {0}")
    @ValueSource(booleans = {false, true})
    void replicaRestartedOnAHalfRestoredRedis_servesOnlyOnceItInstalledACompleteSnapshot(boolean tls) {
        cluster = new TestCluster(SERVERS.fixtures(), Order.FIFO, Propagation.ASYNC);
        if (tls) {
            // with a deployment's certificates every page request and page is sealed (SenderAuthentication), as in services
            DeploymentCa ca = DeploymentCa.generate("vpki test deployment CA", Instant.now().minusSeconds(3600), Duration.ofDays(1),
                    new SecureRandom());
            Path trust = dir.resolve("trust.p12");
            ca.writeTrustStore(trust, PASSWORD.toCharArray());
            for (String id : List.of("r0", "r1")) {
                ca.issueKeyStore(id, Instant.now().minusSeconds(3600), Duration.ofDays(1), new SecureRandom(),
                        dir.resolve(id + ".p12"), PASSWORD.toCharArray());
            }
            cluster.withTls(id -> ReplicationConfig.Tls.of(dir.resolve(id + ".p12"), PASSWORD, trust, PASSWORD));
        }
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
        List<SnapshotPage> full = SnapshotPages.read(new RedisStateMachine(cluster.member(0).pool, KEYSPACE), 1_024);
        RedisStateMachine r1Redis = new RedisStateMachine(cluster.member(1).pool, KEYSPACE);
        SnapshotPages.install(r1Redis, full, full.size() / 2);
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
    void loneReplicaOnAHalfRestoredRedis_staysOutOfService_andSaysWhy() {
        cluster = new TestCluster(SERVERS.fixtures().subList(1, 2), Order.FIFO, Propagation.ASYNC, 1);
        JedisPool pool = cluster.member(0).pool;
        flush(pool);
        List<SnapshotPage> snapshot = snapshotOf200Keys(pool);
        flush(pool);
        SnapshotPages.install(new RedisStateMachine(pool, KEYSPACE), snapshot, snapshot.size() / 2);

        Replica replica = cluster.start(0);

        ReplicaStatus status = replica.status();
        assertThat(status.serving()).as("%s", status).isFalse();
        assertThat(status.detail()).contains("state incomplete");
        assertThat(cluster.member(0).registry.get("vpki.replication.state.incomplete").gauge().value()).isEqualTo(1);
    }
}
