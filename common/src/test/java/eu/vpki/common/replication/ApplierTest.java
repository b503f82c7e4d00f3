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
import static org.awaitility.Awaitility.await;

/**
 * The applier against a real redis-server: each origin's commands are applied in sequence without a
 * gap (a later one is held until the missing ones arrive from a peer's log, and its SYNC request is
 * answered "not applied" at once); commands fetched from a peer are applied only where they continue
 * this replica's sequence; Redis that lost writes makes the applier fail; in ASYNC, other origins'
 * commands are grouped into one Redis round trip, and this replica's own commands are never held.
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
        start(grouping, Applier.DEFAULT_MAX_HELD);
    }

    /** Starts an applier for replica {@code r0} holding back at most {@code maxHeld} commands per origin. */
    private void start(Duration grouping, int maxHeld) {
        ReplicationConfig config = new ReplicationConfig("t", "r0", ReplicationConfig.Order.FIFO,
                ReplicationConfig.Propagation.ASYNC, "127.0.0.1", 7800,
                new ReplicationConfig.Discovery.TcpPing("127.0.0.1[7800]"), 1,
                new ReplicationConfig.Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(20), Duration.ofMillis(500),
                        Duration.ofSeconds(5)));
        registry = new SimpleMeterRegistry();
        ReplicationMetrics metrics = new ReplicationMetrics(registry, config, new ReplicationMetrics.Gauges() {
            @Override
            public int viewSize() {
                return 1;
            }

            @Override
            public int queued() {
                return 0;
            }

            @Override
            public ReplicaStatus status() {
                return new ReplicaStatus(ReplicaStatus.State.SERVING, "r0", "r0", 1, 1, 0, 0, "test");
            }

            @Override
            public boolean coordinator() {
                return false;
            }

            @Override
            public long commandLogLength() {
                return 0;
            }

            @Override
            public ReplicationSnapshot.RedisMemory redisMemory() {
                return null;
            }
        });
        applier = new Applier("r0", grouping, maxHeld, new RedisStateMachine(pool, KEYSPACE), watermarks, metrics,
                Clock.systemUTC(), failure::set);
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
    void recovered_appliesOnlyTheCommandsThisReplicaLacks() throws Exception {
        start(Duration.ZERO);
        applier.deliver(put(1), null);
        applier.deliver(put(2), null);
        watermarks.whenApplied(new CommandId("gone", 2)).get(5, TimeUnit.SECONDS);
        try (Jedis jedis = pool.getResource()) {
            jedis.del("t:idx:gone1"); // were command 1 applied again, this key would come back
        }

        applier.recover(List.of(put(1), put(2), put(3), put(4)));
        watermarks.whenApplied(new CommandId("gone", 4)).get(5, TimeUnit.SECONDS);

        assertThat(stored(1)).isFalse();
        assertThat(List.of(stored(2), stored(3), stored(4))).containsOnly(true);
        assertThat(failure.get()).isNull();
    }

    /**
     * Issue #38, "heap and hold-back bounded by configuration": a member catching up while the group keeps writing held
     * every live command behind its gap, without limit. Now it holds at most maxHeld per origin (the lowest), drops the
     * rest ("not applied") and says from where they must be fetched again; once fetched, everything is applied.
     */
    @Test
    void aFullHoldBack_dropsTheHighest_andSaysFromWhereToFetchThemAgain() throws Exception {
        start(Duration.ZERO, 5);
        RecordingResponse dropped = new RecordingResponse();
        for (long seq = 20; seq >= 12; seq--) {
            applier.deliver(put(seq), seq == 20 ? dropped : null); // out of order: the lowest are kept
        }
        for (long seq = 2; seq <= 11; seq++) {
            applier.deliver(put(seq), null);
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> applier.gaps().containsKey("gone")
                && applier.fetchableFrom("gone") == 7);
        assertThat(applier.gaps().get("gone").held()).isEqualTo(5); // 2..6
        assertThat(dropped.replies).containsExactly(false);
        assertThat(applier.received("gone")).isEqualTo(20);

        applier.recover(List.of(put(1))); // the gap closes: 1..6 applied, 7..20 must be fetched
        watermarks.whenApplied(new CommandId("gone", 6)).get(5, TimeUnit.SECONDS);
        assertThat(watermarks.appliedSeq("gone")).isEqualTo(6);
        assertThat(applier.fetchableFrom("gone")).isEqualTo(7);

        List<Command> rest = new java.util.ArrayList<>();
        for (long seq = 7; seq <= 20; seq++) {
            rest.add(put(seq));
        }
        applier.recover(rest);
        watermarks.whenApplied(new CommandId("gone", 20)).get(5, TimeUnit.SECONDS);
        assertThat(applier.fetchableFrom("gone")).isEqualTo(Long.MAX_VALUE);
        assertThat(applier.gaps()).isEmpty();
        assertThat(failure.get()).isNull();
    }

    @Test
    void commandAfterAGap_isHeldAndAnsweredNotApplied_untilTheMissingOneArrives() throws Exception {
        start(Duration.ZERO);
        applier.deliver(put(1), null);
        RecordingResponse answer = new RecordingResponse();
        applier.deliver(put(3), answer);
        applier.deliver(put(4), null);

        await().atMost(Duration.ofSeconds(5)).until(() -> !applier.gaps().isEmpty());
        assertThat(applier.gaps().get("gone")).satisfies(gap -> {
            assertThat(gap.from()).isEqualTo(2);
            assertThat(gap.heldFrom()).isEqualTo(3);
            assertThat(gap.held()).isEqualTo(2);
        });
        assertThat(answer.replies).as("the origin must not wait for a held command").containsExactly(false);
        assertThat(stored(3)).isFalse();
        assertThat(watermarks.appliedSeq("gone")).isEqualTo(1);
        assertThat(applier.oldestWaitingNanos()).isPositive();

        applier.recover(List.of(put(2)));
        watermarks.whenApplied(new CommandId("gone", 4)).get(5, TimeUnit.SECONDS);

        assertThat(List.of(stored(2), stored(3), stored(4))).containsOnly(true);
        await().atMost(Duration.ofSeconds(5)).until(() -> applier.gaps().isEmpty());
        assertThat(answer.replies).as("answered once").containsExactly(false);
        assertThat(failure.get()).isNull();
    }

    @Test
    void recoveredCommandsPastAGap_areHeldNotApplied() throws Exception {
        start(Duration.ZERO);
        applier.deliver(put(1), null);
        applier.recover(List.of(put(3), put(4)));
        applier.deliver(put(2), null);
        watermarks.whenApplied(new CommandId("gone", 4)).get(5, TimeUnit.SECONDS);

        assertThat(List.of(stored(1), stored(2), stored(3), stored(4))).containsOnly(true);
        assertThat(failure.get()).isNull();
    }

    @Test
    void redisThatLostAppliedCommands_failsTheApplier() throws Exception {
        start(Duration.ZERO);
        applier.deliver(put(1), null);
        watermarks.whenApplied(new CommandId("gone", 1)).get(5, TimeUnit.SECONDS);
        REDIS.fixture().flushAll(); // what a restart without the last writes looks like

        applier.deliver(put(2), null);

        await().atMost(Duration.ofSeconds(5)).until(() -> failure.get() != null);
        assertThat(failure.get()).hasMessageContaining("lost writes");
        assertThat(stored(2)).isFalse();
    }

    /** A SYNC request's answer channel that records what it was answered. */
    private static final class RecordingResponse implements org.jgroups.blocks.Response {
        final List<Object> replies = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void send(Object reply, boolean isException) {
            replies.add(reply);
        }

        @Override
        public void send(org.jgroups.Message reply, boolean isException) {
            replies.add(reply);
        }
    }

    @Test
    void othersCommands_areHeldAndAppliedTogetherWithTheNextOwnCommand() throws Exception {
        start(Duration.ofSeconds(30)); // far longer than this test may take: only the own command can end the wait
        applier.deliver(put("r1", 1), null);
        awaitTaken(); // the applier holds r1/1 and waits for more: the next ones arrive during the wait
        applier.deliver(put("r2", 1), null);
        applier.deliver(put("r1", 2), null);
        awaitTaken(); // both are in the held batch now: nothing may be applied until the own command comes
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
        applier.whilePaused(Duration.ofSeconds(5), false, () -> seenWhilePaused.set(watermarks.appliedSeq("r1")));

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
