package eu.vpki.common.replication;

import eu.vpki.common.testing.RedisFixtureExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** A departed origin's commands redelivered by a survivor: applied only when they continue this replica's sequence. */
class ApplierRedeliveryTest {

    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();

    private static final ReplicatedKeyspace KEYSPACE = ReplicatedKeyspace.of("t:idx:");

    private JedisPool pool;
    private AppliedWatermarks watermarks;
    private Applier applier;
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

    @BeforeEach
    void start() {
        pool = REDIS.fixture().newPool();
        watermarks = new AppliedWatermarks();
        ReplicationConfig config = new ReplicationConfig("t", "r0", ReplicationConfig.Order.FIFO,
                ReplicationConfig.Propagation.ASYNC, "127.0.0.1", 7800,
                new ReplicationConfig.Discovery.TcpPing("127.0.0.1[7800]"), 1,
                new ReplicationConfig.Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(20), Duration.ofMillis(500),
                        Duration.ofSeconds(5)));
        ReplicationMetrics metrics = new ReplicationMetrics(new SimpleMeterRegistry(), config, () -> 1, () -> 0);
        applier = new Applier("r0", new RedisStateMachine(pool, KEYSPACE), watermarks, metrics, Clock.systemUTC(), failure::set);
        applier.start();
    }

    @AfterEach
    void stop() {
        applier.stop();
        pool.close();
    }

    private static Command put(long seq) {
        return new Command(new CommandId("gone", seq), 0, List.of(new Operation.Put("t:idx:" + seq, "v" + seq)));
    }

    private boolean stored(long seq) {
        try (Jedis jedis = pool.getResource()) {
            return jedis.exists("t:idx:" + seq);
        }
    }

    @Test
    void redelivery_appliesOnlyTheCommandsThisReplicaLacks() throws Exception {
        applier.deliver(put(1), null);
        applier.deliver(put(2), null);
        watermarks.whenApplied(new CommandId("gone", 2)).get(5, TimeUnit.SECONDS);
        try (Jedis jedis = pool.getResource()) {
            jedis.del("t:idx:1"); // were command 1 applied again, this key would come back
        }

        applier.redeliver(List.of(put(1), put(2), put(3), put(4)));
        watermarks.whenApplied(new CommandId("gone", 4)).get(5, TimeUnit.SECONDS);

        assertThat(stored(1)).isFalse();
        assertThat(List.of(stored(2), stored(3), stored(4))).containsOnly(true);
        assertThat(failure.get()).isNull();
    }

    @Test
    void redelivery_startingPastAGap_appliesNothing() throws Exception {
        applier.deliver(put(1), null);
        applier.redeliver(List.of(put(3), put(4)));
        applier.deliver(put(2), null); // a marker: applied after the redelivery was handled
        watermarks.whenApplied(new CommandId("gone", 2)).get(5, TimeUnit.SECONDS);

        assertThat(watermarks.appliedSeq("gone")).isEqualTo(2);
        assertThat(stored(3)).isFalse();
        assertThat(stored(4)).isFalse();
        assertThat(failure.get()).isNull();
    }
}
