package eu.vpki.common.replication;

import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.RedisFixtureExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

/**
 * {@link Replica#snapshot()} and the gauges of the same figures on three real replicas, each with its own
 * redis-server ({@link TestCluster}): the view and its coordinator, each member's positions and lag as its
 * peers see them, the command log, Redis's memory, and the gate closing when the majority goes.
 */
class ReplicationSnapshotClusterTest {

    @RegisterExtension
    static final RedisFixtureExtension SERVERS = new RedisFixtureExtension(3);

    private TestCluster cluster;

    @AfterEach
    void closeReplicas() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static List<Operation> put(String key) {
        return List.of(new Operation.Put(key, "1"));
    }

    @Test
    void snapshot_showsTheViewEveryMembersPositionsTheLogAndALaggingMember_andTheGateClosingInAMinority() {
        cluster = new TestCluster(SERVERS.fixtures(), Order.FIFO, Propagation.ASYNC);
        cluster.startAll();
        for (int i = 0; i < 3; i++) {
            cluster.submitWhenServing(0, put("t:rec:a" + i));
        }
        for (int i = 0; i < 2; i++) {
            cluster.submitWhenServing(1, put("t:rec:b" + i));
        }
        cluster.awaitSameState(0, 1, 2);
        Replica r0 = cluster.member(0).replica();
        Replica r1 = cluster.member(1).replica();
        String origin0 = r0.origin();
        String origin1 = r1.origin();

        await().atMost(TestCluster.CONVERGENCE).untilAsserted(() -> {
            ReplicationSnapshot snapshot = r1.snapshot();
            assertThat(snapshot.status().state()).isEqualTo(ReplicaStatus.State.SERVING);
            assertThat(snapshot.cluster()).isEqualTo(cluster.clusterName());
            assertThat(snapshot.coordinator()).isEqualTo("r0");
            assertThat(snapshot.view()).startsWith("[r0|");
            assertThat(snapshot.members()).extracting(ReplicationSnapshot.Member::replicaId).containsExactly("r0", "r1", "r2");
            assertThat(snapshot.members()).extracting(ReplicationSnapshot.Member::coordinator).containsExactly(true, false, false);
            assertThat(snapshot.self().replicaId()).isEqualTo("r1");
            assertThat(snapshot.members()).allSatisfy(member -> {
                assertThat(member.applied()).containsEntry(origin0, 3L).containsEntry(origin1, 2L);
                assertThat(member.behind()).isZero();
                assertThat(member.serving()).isTrue();
            });
            ReplicationSnapshot.OriginPosition of0 = snapshot.origins().stream().filter(p -> p.origin().equals(origin0)).findFirst()
                    .orElseThrow();
            assertThat(of0.applied()).isEqualTo(3);
            assertThat(of0.newest()).isEqualTo(3);
            assertThat(of0.missingFrom()).isZero();
            assertThat(of0.logLength()).isBetween(0L, 3L);
            assertThat(snapshot.redis().usedBytes()).isPositive();
        });
        SimpleMeterRegistry metrics0 = cluster.member(0).registry;
        SimpleMeterRegistry metrics1 = cluster.member(1).registry;
        assertThat(metrics0.get("vpki.replication.coordinator").gauge().value()).isEqualTo(1);
        assertThat(metrics1.get("vpki.replication.coordinator").gauge().value()).isZero();
        assertThat(metrics1.get("vpki.replication.expected.members").gauge().value()).isEqualTo(3);
        assertThat(metrics1.get("vpki.replication.state").tag("state", "serving").gauge().value()).isEqualTo(1);
        assertThat(metrics1.get("vpki.replication.state").tag("state", "minority").gauge().value()).isZero();
        assertThat(metrics1.get("vpki.redis.memory.used").gauge().value()).isPositive();
        assertThat(metrics1.get("vpki.redis.memory.max").gauge().value()).isNotNegative();
        await().atMost(TestCluster.CONVERGENCE).untilAsserted(() -> assertThat(
                metrics1.get("vpki.replication.log.commands").gauge().value()).isEqualTo(r1.snapshot().commandLogLength()));

        // r2 hears nothing from r0 and r1 any more, but they still hear its reports: it falls behind, as r0 sees it
        cluster.drop(2, 0);
        cluster.drop(2, 1);
        for (int i = 0; i < 4; i++) {
            cluster.submitWhenServing(0, put("t:rec:c" + i));
        }
        await().atMost(TestCluster.CONVERGENCE).untilAsserted(() -> assertThat(r0.snapshot().members())
                .extracting(ReplicationSnapshot.Member::replicaId, ReplicationSnapshot.Member::behind)
                .contains(org.assertj.core.groups.Tuple.tuple("r1", 0L), org.assertj.core.groups.Tuple.tuple("r2", 4L)));
        cluster.heal();
        await().atMost(TestCluster.CONVERGENCE).untilAsserted(() -> assertThat(r0.snapshot().members())
                .extracting(ReplicationSnapshot.Member::behind).containsOnly(0L));

        // alone, r0 holds no majority: its gate closes and says why
        cluster.member(1).stop();
        cluster.member(2).stop();
        await().atMost(TestCluster.CONVERGENCE).untilAsserted(() -> {
            ReplicationSnapshot alone = r0.snapshot();
            assertThat(alone.status().state()).isEqualTo(ReplicaStatus.State.MINORITY);
            assertThat(alone.status().detail()).contains("no majority");
            assertThat(alone.members()).extracting(ReplicationSnapshot.Member::replicaId).containsExactly("r0");
            assertThat(metrics0.get("vpki.replication.state").tag("state", "minority").gauge().value()).isEqualTo(1);
            assertThat(metrics0.get("vpki.replication.serving").gauge().value()).isZero();
        });
    }

    @Test
    void snapshotAndGauges_neverWaitOnARedisThatHangs_andSayItsFiguresAreUnknown() {
        cluster = new TestCluster(SERVERS.fixtures(), Order.FIFO, Propagation.ASYNC);
        cluster.startAll();
        cluster.submitWhenServing(0, put("t:rec:h"));
        Replica r1 = cluster.member(1).replica();
        SimpleMeterRegistry metrics1 = cluster.member(1).registry;
        await().atMost(TestCluster.CONVERGENCE).until(() -> r1.snapshot().redis() != null);

        // every command of every client of r1's Redis waits 20 s from now, as behind a hung server
        try (redis.clients.jedis.Jedis jedis = cluster.member(1).pool.getResource()) {
            jedis.sendCommand(redis.clients.jedis.Protocol.Command.CLIENT, "PAUSE", "20000", "ALL");
        }
        // a Redis call would block for its 2 s timeout; neither the snapshot nor a scrape makes one
        await().atMost(TestCluster.CONVERGENCE).untilAsserted(() -> assertTimeoutPreemptively(java.time.Duration.ofMillis(1500), () -> {
            ReplicationSnapshot snapshot = r1.snapshot();
            assertThat(snapshot.redis()).isNull();
            assertThat(snapshot.commandLogLength()).isEqualTo(-1);
            assertThat(metrics1.get("vpki.redis.memory.used").gauge().value()).isNaN();
            assertThat(metrics1.get("vpki.replication.log.commands").gauge().value()).isNaN();
            metrics1.get("vpki.replication.state").gauges().forEach(gauge -> gauge.value());
        }));
    }
}
