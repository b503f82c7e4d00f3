package eu.vpki.common.replication;

import eu.vpki.common.testing.RedisFixtureExtension;
import io.micrometer.core.instrument.DistributionSummary;
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

/**
 * The applier against a real redis-server: a departed origin's commands redelivered by a survivor are
 * applied only when they continue this replica's sequence; in ASYNC, other origins' commands are
 * grouped into one Redis round trip, and this replica's own commands are never held.
 */
class ApplierTest {

    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();

    private static final ReplicatedKeyspace KEYSPACE = ReplicatedKeyspace.of("t:idx:");

    private JedisPool pool;
    private AppliedWatermarks watermarks;
    private Applier applier;
    private SimpleMeterRegistry registry;
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

    @BeforeEach
    void connect() {
        pool = REDIS.fixture().newPool();
        watermarks = new AppliedWatermarks();
    }

    /** Starts an applier for replica {@code r0} that may hold other origins' commands for {@code grouping}. */
    private void start(Duration grouping) {
        ReplicationConfig config = new ReplicationConfig("t", "r0", ReplicationConfig.Order.FIFO,
                ReplicationConfig.Propagation.ASYNC, "127.0.0.1", 7800,
                new ReplicationConfig.Discovery.TcpPing("127.0.0.1[7800]"), 1,
                new ReplicationConfig.Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(20), Duration.ofMillis(500),
                        Duration.ofSeconds(5)));
        registry = new SimpleMeterRegistry();
        ReplicationMetrics metrics = new ReplicationMetrics(registry, config, () -> 1, () -> 0);
        applier = new Applier("r0", grouping, new RedisStateMachine(pool, KEYSPACE), watermarks, metrics, Clock.systemUTC(),
                failure::set);
        applier.start();
    }

    @AfterEach
    void stop() {
        if (applier != null) {
            applier.stop();
        }
        pool.close();
    }

    private static Command put(long seq) {
        return put("gone", seq);
    }

    private static Command put(String origin, long seq) {
        return new Command(new CommandId(origin, seq), 0, List.of(new Operation.Put("t:idx:" + origin + seq, "v" + seq)));
    }

    private boolean stored(long seq) {
        try (Jedis jedis = pool.getResource()) {
            return jedis.exists("t:idx:gone" + seq);
        }
    }

    /** Waits until the applier has taken everything delivered so far off its queue. */
    private void awaitTaken() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (applier.queued() > 0) {
            assertThat(System.nanoTime()).as("applier took the queued commands within 5 s").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    /** Redis round trips the applier made so far, and the commands they carried. */
    private DistributionSummary batches() {
        return registry.get("vpki.replication.apply.batch").summary();
    }

    @Test
    void redelivery_appliesOnlyTheCommandsThisReplicaLacks() throws Exception {
        start(Duration.ZERO);
        applier.deliver(put(1), null);
        applier.deliver(put(2), null);
        watermarks.whenApplied(new CommandId("gone", 2)).get(5, TimeUnit.SECONDS);
        try (Jedis jedis = pool.getResource()) {
            jedis.del("t:idx:gone1"); // were command 1 applied again, this key would come back
        }

        applier.redeliver(List.of(put(1), put(2), put(3), put(4)));
        watermarks.whenApplied(new CommandId("gone", 4)).get(5, TimeUnit.SECONDS);

        assertThat(stored(1)).isFalse();
        assertThat(List.of(stored(2), stored(3), stored(4))).containsOnly(true);
        assertThat(failure.get()).isNull();
    }

    @Test
    void redelivery_startingPastAGap_appliesNothing() throws Exception {
        start(Duration.ZERO);
        applier.deliver(put(1), null);
        applier.redeliver(List.of(put(3), put(4)));
        applier.deliver(put(2), null); // a marker: applied after the redelivery was handled
        watermarks.whenApplied(new CommandId("gone", 2)).get(5, TimeUnit.SECONDS);

        assertThat(watermarks.appliedSeq("gone")).isEqualTo(2);
        assertThat(stored(3)).isFalse();
        assertThat(stored(4)).isFalse();
        assertThat(failure.get()).isNull();
    }

    @Test
    void othersCommands_areHeldAndAppliedTogetherWithTheNextOwnCommand() throws Exception {
        start(Duration.ofSeconds(30)); // far longer than this test may take: only the own command can end the wait
        applier.deliver(put("r1", 1), null);
        awaitTaken(); // the applier holds r1/1 and waits for more: the next ones arrive during the wait
        applier.deliver(put("r2", 1), null);
        applier.deliver(put("r1", 2), null);
        Thread.sleep(20); // no condition to wait for: what is checked is that nothing happens meanwhile
        assertThat(watermarks.appliedSeq("r1")).as("held while only other origins' commands are queued").isZero();

        applier.deliver(put("r0", 1), null);
        watermarks.whenApplied(new CommandId("r0", 1)).get(5, TimeUnit.SECONDS);

        assertThat(watermarks.appliedSeq("r1")).isEqualTo(2);
        assertThat(watermarks.appliedSeq("r2")).isEqualTo(1);
        assertThat(batches().count()).as("Redis round trips").isEqualTo(1);
        assertThat(batches().totalAmount()).as("commands in them").isEqualTo(4);
        assertThat(failure.get()).isNull();
    }

    @Test
    void othersCommands_areAppliedWhenTheGroupingTimeEnds() throws Exception {
        start(Duration.ofMillis(300));
        long start = System.nanoTime();
        applier.deliver(put("r1", 1), null);
        watermarks.whenApplied(new CommandId("r1", 1)).get(5, TimeUnit.SECONDS);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(batches().count()).isEqualTo(1);
        assertThat(failure.get()).isNull();
    }

    @Test
    void ownCommand_isNotHeld() throws Exception {
        start(Duration.ofSeconds(30)); // were it held, the wait below would time out
        applier.deliver(put("r0", 1), null);
        watermarks.whenApplied(new CommandId("r0", 1)).get(5, TimeUnit.SECONDS);
        assertThat(failure.get()).isNull();
    }

    @Test
    void pause_endsTheWaitAfterTheHeldCommandsAreApplied() throws Exception {
        start(Duration.ofSeconds(30));
        applier.deliver(put("r1", 1), null);
        AtomicReference<Long> seenWhilePaused = new AtomicReference<>();
        applier.whilePaused(Duration.ofSeconds(5), () -> seenWhilePaused.set(watermarks.appliedSeq("r1")));

        assertThat(seenWhilePaused.get()).isEqualTo(1);
        assertThat(failure.get()).isNull();
    }

    @Test
    void withoutGrouping_othersCommandsAreAppliedAtOnce() throws Exception {
        start(Duration.ZERO);
        applier.deliver(put("r1", 1), null);
        watermarks.whenApplied(new CommandId("r1", 1)).get(5, TimeUnit.SECONDS);
        assertThat(failure.get()).isNull();
    }
}
