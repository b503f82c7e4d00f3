package eu.vpki.common.replication;

import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.RedisFixtureExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue #38, "command logs are bounded by size ... and a member absent past the bound rejoins through the transfer":
 * while r2 is down, r0 and r1 keep at most {@code log-max-commands} of each origin (here 40), and r2, back, finds no
 * log holding what it lacks, takes a state transfer page by page and serves the same state. Before, nothing was
 * trimmed while a member was absent, however long. Three real redis-servers, real JGroups.
 */
class LogBoundTest {
    @RegisterExtension
    static final RedisFixtureExtension SERVERS = new RedisFixtureExtension(3);

    private static final long BOUND = 40;
    private TestCluster cluster;

    @AfterEach
    void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private long logLength(int member, String origin) {
        return new CommandLog(cluster.member(member).pool, ReplicaClusterTest.KEYSPACE).length(origin);
    }

    @Test
    void whileAMemberIsAbsent_logsKeepTheBound_andItRejoinsThroughAStateTransfer() {
        cluster = new TestCluster(SERVERS.fixtures(), Order.FIFO, Propagation.ASYNC).withMaxLogCommands(BOUND);
        for (TestCluster.Member m : cluster.members()) {
            try (Jedis jedis = m.pool.getResource()) {
                jedis.flushAll();
            }
        }
        cluster.startAll();
        cluster.submitWhenServing(0, List.of(new Operation.Put("t:idx:first", "v")));
        cluster.member(2).stop();
        String origin = cluster.member(0).replica().origin();
        CommandId last = null;
        for (int i = 0; i < 200; i++) {
            last = cluster.submitWhenServing(0, List.of(new Operation.Put("t:idx:k" + i, "v" + i),
                    new Operation.SetAdd("t:set:s", "m" + i))).token();
        }
        cluster.member(1).replica().awaitApplied(last, TestCluster.CONVERGENCE);

        await().atMost(TestCluster.CONVERGENCE).untilAsserted(() -> {
            assertThat(logLength(0, origin)).as("r0's log of its own commands").isLessThanOrEqualTo(BOUND);
            assertThat(logLength(1, origin)).as("r1's log of r0's commands").isLessThanOrEqualTo(BOUND);
        });

        Replica r2 = cluster.start(2);
        cluster.awaitServing(2);
        CommandId lastSeen = last;
        await().atMost(TestCluster.CONVERGENCE).until(() -> r2.hasApplied(lastSeen));
        assertThat(r2.stateDigest()).isEqualTo(cluster.member(0).replica().stateDigest());
        assertThat(cluster.member(2).registry.get("vpki.replication.transfer.entries").counter().count())
                .as("r2 rejoined through a state transfer").isGreaterThan(200);
    }
}
