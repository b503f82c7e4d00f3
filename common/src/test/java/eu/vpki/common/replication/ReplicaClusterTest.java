package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.common.testing.RedisFixtureExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Three replicas in one JVM, TCP on 127.0.0.1 with TCPPING, each with its own redis-server
 * ({@link TestCluster}): convergence under load in every mode, joining mid-load, crashes under SYNC
 * load, a departing member's command that reached one survivor only, majorities, read-your-writes.
 */
class ReplicaClusterTest {

    static final ReplicatedKeyspace KEYSPACE = ReplicatedKeyspace.of("t:rec:", "t:set:", "t:idx:");
    @RegisterExtension
    static final RedisFixtureExtension SERVERS = new RedisFixtureExtension(3);

    private TestCluster cluster;

    @AfterEach
    void closeReplicas() {
        if (cluster != null) {
            cluster.close();
        }
    }

    static Stream<Arguments> modes() {
        return Stream.of(Order.values()).flatMap(order -> Stream.of(Propagation.values())
                .map(propagation -> Arguments.of(order, propagation)));
    }

    private JedisPool pool(int index) {
        return cluster.member(index).pool;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modes")
    void concurrentSubmitsFromThreeReplicas_convergeToOneState(Order order, Propagation propagation) {
        cluster = new TestCluster(SERVERS.fixtures(), order, propagation);
        Replica a = cluster.start(0);
        Replica b = cluster.start(1);
        Replica c = cluster.start(2);
        cluster.awaitServing(0, 1, 2);
        ConcurrentLinkedQueue<String> notVisible = new ConcurrentLinkedQueue<>();
        List<Load> loads = Stream.of(a, b, c).map(origin -> new Load(origin, 700, ack -> {
            if (propagation == Propagation.SYNC) {
                long applied = Stream.of(a, b, c).filter(other -> other.hasApplied(ack.token())).count();
                if (applied < 2) {
                    notVisible.add(ack.token() + " applied at " + applied + " replicas only");
                }
            }
        })).toList();

        loads.forEach(Load::start);
        awaitFinished(loads);

        assertThat(loads).allSatisfy(load -> {
            assertThat(load.errors).isEmpty();
            assertThat(load.acks).hasSize(700);
        });
        assertThat(notVisible).as("SYNC acknowledgements applied at a majority").isEmpty();
        cluster.awaitSameState(0, 1, 2);
        for (Load load : loads) {
            Acknowledgement last = load.acks.stream().max((x, y) -> Long.compare(x.token().seq(), y.token().seq()))
                    .orElseThrow();
            for (Replica replica : List.of(a, b, c)) {
                replica.awaitApplied(last.token(), Duration.ofSeconds(5));
            }
        }
        SimpleMeterRegistry metricsOfB = cluster.member(1).registry;
        for (String origin : List.of("r0", "r1", "r2")) {
            assertThat(metricsOfB.get("vpki.replication.commands").tag("origin", origin).tag("outcome", "applied")
                    .counter().count()).isEqualTo(700);
        }
        assertThat(metricsOfB.get("vpki.replication.view.size").gauge().value()).isEqualTo(3);
        assertThat(metricsOfB.get("vpki.replication.serving").gauge().value()).isEqualTo(1);
        assertThat(metricsOfB.get("vpki.replication.held").gauge().value()).isZero();
        assertThat(metricsOfB.get("vpki.replication.submit.latency").timer().count()).isEqualTo(700);
        assertThat(metricsOfB.get("vpki.replication.apply.lag").timer().count()).isEqualTo(3 * 700);
        try (Jedis jedis = pool(1).getResource()) {
            assertThat(jedis.keys("t:idx:*")).hasSize(3 * 700);
            assertThat(StoredRecord.from(jedis.hgetAll("t:rec:0"))).isPresent();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modes")
    void replicaJoiningMidLoad_catchesUpAndConverges(Order order, Propagation propagation) {
        cluster = new TestCluster(SERVERS.fixtures(), order, propagation);
        Replica a = cluster.start(0);
        Replica b = cluster.start(1);
        cluster.awaitServing(0, 1);
        Load loadA = new Load(a, 600, ack -> {
        });
        Load loadB = new Load(b, 600, ack -> {
        });
        loadA.start();
        loadB.start();
        await().atMost(TestCluster.CONVERGENCE).until(() -> loadA.acks.size() + loadB.acks.size() >= 300);

        Replica c = cluster.start(2);
        cluster.awaitServing(2);
        Load loadC = new Load(c, 200, ack -> {
        });
        loadC.start();
        awaitFinished(List.of(loadA, loadB, loadC));

        assertThat(List.of(loadA, loadB, loadC)).allSatisfy(load -> assertThat(load.errors).isEmpty());
        cluster.awaitSameState(0, 1, 2);
        try (Jedis jedis = pool(2).getResource()) {
            assertThat(jedis.keys("t:idx:*")).hasSize(600 + 600 + 200);
        }
    }

    /** What happens to the victim replica mid-load. */
    enum Crash { KILL_ITS_REDIS, CLOSE_IT }

    static Stream<Arguments> syncCrashes() {
        return Stream.of(Order.values()).flatMap(order -> Stream.of(Crash.values())
                .map(crash -> Arguments.of(order, crash)));
    }

    @ParameterizedTest(name = "{0} SYNC, {1}")
    @MethodSource("syncCrashes")
    void syncLoad_losesNoAcknowledgedWriteWhenAReplicaCrashes(Order order, Crash crash) {
        try (RedisFixture victimRedis = RedisFixture.start()) {
            cluster = new TestCluster(List.of(SERVERS.fixtures().get(0), SERVERS.fixtures().get(1), victimRedis), order, Propagation.SYNC);
            Replica a = cluster.start(0);
            Replica b = cluster.start(1);
            Replica victim = cluster.start(2);
            cluster.awaitServing(0, 1, 2);
            List<Load> loads = Stream.of(a, b, victim).map(origin -> new Load(origin, 500, ack -> {
            })).toList();
            loads.forEach(Load::start);
            await().atMost(TestCluster.CONVERGENCE).until(() -> loads.stream().mapToInt(load -> load.acks.size()).sum() >= 300);

            if (crash == Crash.KILL_ITS_REDIS) {
                victimRedis.kill();
                await().atMost(TestCluster.CONVERGENCE).until(() -> victim.status().state() == ReplicaStatus.State.FAILED);
                assertThat(victim.status().serving()).isFalse();
                assertThat(victim.status().detail()).isNotBlank();
            } else {
                victim.close();
                assertThat(victim.status().state()).isEqualTo(ReplicaStatus.State.CLOSED);
            }
            awaitFinished(loads);

            cluster.awaitViewSize(2, 0, 1);
            assertThat(loads.get(0).errors).as("errors at a").allSatisfy(ReplicaClusterTest::isOutcomeUnknownOrRefused);
            assertThat(loads.get(1).errors).as("errors at b").allSatisfy(ReplicaClusterTest::isOutcomeUnknownOrRefused);
            assertThat(loads.get(0).acks.size() + loads.get(1).acks.size()).isGreaterThan(500);
            cluster.awaitSameState(0, 1);
            for (Load load : loads) {
                for (int index : load.acknowledgedIndexes) {
                    String key = Load.uniqueKey(load.replica.id(), index);
                    for (int survivor : List.of(0, 1)) {
                        assertThat(cluster.member(survivor).exists(key)).as("acknowledged write %s present at survivor", key)
                                .isTrue();
                    }
                }
            }
        }
    }

    /**
     * Without FLUSH, JGroups may deliver a departing member's last multicast to some survivors only;
     * here b drops everything from c, so c's last command reaches a alone before c leaves. The
     * survivors must still end in one state: b finds in a's report that it lacks c's command and
     * fetches it from a's log.
     */
    @ParameterizedTest
    @EnumSource(Propagation.class)
    void departedReplicasLastCommand_reachingOneSurvivorOnly_reachesTheOtherToo(Propagation propagation) {
        cluster = new TestCluster(SERVERS.fixtures(), Order.FIFO, propagation);
        Replica a = cluster.start(0);
        Replica b = cluster.start(1);
        Replica c = cluster.start(2);
        cluster.awaitServing(0, 1, 2);
        CommandId seen = c.submit(List.of(new Operation.Put("t:idx:seen-by-all", "1"))).join().token();
        a.awaitApplied(seen, Duration.ofSeconds(5));
        b.awaitApplied(seen, Duration.ofSeconds(5));

        cluster.drop(1, 2);
        CommandId lost = new CommandId(c.origin(), seen.seq() + 1);
        c.submit(List.of(new Operation.Put("t:idx:only-a-received", "2"), new Operation.SetAdd("t:set:s", "x")));
        a.awaitApplied(lost, Duration.ofSeconds(5));
        assertThat(b.hasApplied(lost)).isFalse();

        c.close();
        cluster.awaitViewSize(2, 0, 1);

        b.awaitApplied(lost, Duration.ofSeconds(20));
        try (Jedis jedis = pool(1).getResource()) {
            assertThat(jedis.get("t:idx:only-a-received")).isEqualTo("2");
            assertThat(jedis.smembers("t:set:s")).containsExactly("x");
        }
        cluster.awaitSameState(0, 1);
        assertThat(cluster.member(1).registry.get("vpki.replication.recovered").counter().count()).isPositive();
    }

    @Test
    void loneReplica_refusesWritesUntilAMajorityIsPresent() throws Exception {
        cluster = new TestCluster(SERVERS.fixtures().subList(0, 2), Order.TOTAL, Propagation.SYNC, 3);
        Replica a = cluster.start(0);

        assertThat(a.acceptsWrites()).isFalse();
        assertThat(a.status().state()).isEqualTo(ReplicaStatus.State.MINORITY);
        assertThat(a.status().serving()).isFalse();
        assertThat(a.status().viewSize()).isEqualTo(1);
        assertThatThrownBy(() -> a.submit(List.of(new Operation.Put("t:idx:lonely", "1"))).join())
                .isInstanceOf(CompletionException.class)
                .cause().isInstanceOfSatisfying(ReplicationException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_MAJORITY));

        assertThatThrownBy(() -> a.submitAndWait(List.of(new Operation.Put("t:idx:lonely", "2")), Duration.ofSeconds(5)))
                .isInstanceOf(java.util.concurrent.ExecutionException.class)
                .cause().isInstanceOfSatisfying(ReplicationException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_MAJORITY));

        Replica b = cluster.start(1);
        cluster.awaitServing(0, 1);
        assertThat(a.status().state()).isEqualTo(ReplicaStatus.State.SERVING);
        assertThat(a.status().serving()).isTrue();

        Acknowledgement ack = a.submit(List.of(new Operation.Put("t:idx:together", "1"))).join();
        assertThat(ack.replicas()).isEqualTo(2);
        Acknowledgement waited = b.submitAndWait(List.of(new Operation.Put("t:idx:waited", "1")), Duration.ofSeconds(5));
        assertThat(waited.replicas()).isEqualTo(2);
        assertThat(waited.token().replicaId()).isEqualTo(b.id());
        assertThat(waited.token().origin()).isEqualTo(b.origin());
        try (Jedis jedis = pool(0).getResource()) {
            assertThat(jedis.get("t:idx:waited")).isEqualTo("1"); // SYNC: a majority (here both) applied it before b's answer
        }
        try (Jedis jedis = pool(1).getResource()) {
            assertThat(jedis.get("t:idx:together")).isEqualTo("1");
            assertThat(jedis.exists("t:idx:lonely")).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void asyncAcknowledgement_tokenGivesReadYourWritesOnAnotherReplica(Order order) {
        cluster = new TestCluster(SERVERS.fixtures().subList(0, 2), order, Propagation.ASYNC);
        Replica a = cluster.start(0);
        Replica b = cluster.start(1);
        cluster.awaitServing(0, 1);

        Acknowledgement ack = a.submit(List.of(new Operation.PutIfNewer("t:rec:station-7", 1,
                Map.of("status", "registered")))).join();
        b.awaitApplied(CommandId.parse(ack.token().toString()), Duration.ofSeconds(5));

        try (Jedis jedis = pool(1).getResource()) {
            assertThat(StoredRecord.liveFields(jedis.hgetAll("t:rec:station-7"))).contains(Map.of("status", "registered"));
        }
        assertThat(ack.replicas()).isEqualTo(1);
    }

    @Test
    void closedReplica_refusesWrites() {
        cluster = new TestCluster(SERVERS.fixtures().subList(0, 1), Order.FIFO, Propagation.ASYNC, 1);
        Replica a = cluster.start(0);
        cluster.awaitServing(0);
        a.close();

        assertThat(a.status().state()).isEqualTo(ReplicaStatus.State.CLOSED);
        assertThatThrownBy(() -> a.submit(List.of(new Operation.Put("t:idx:x", "1"))).join())
                .cause().isInstanceOfSatisfying(ReplicationException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_CONNECTED));
    }

    private static boolean isOutcomeUnknownOrRefused(Throwable error) {
        return error instanceof ReplicationException replication
                && (replication.code() == ErrorCode.TIMEOUT_OUTCOME_UNKNOWN
                        || replication.code() == ErrorCode.NOT_SERVING
                        || replication.code() == ErrorCode.NO_MAJORITY);
    }

    private static void awaitFinished(Collection<Load> loads) {
        await().atMost(Duration.ofSeconds(90)).until(() -> loads.stream().allMatch(Load::finished));
    }

    /**
     * Submits {@code total} commands from one replica with at most 64 in flight. Each command writes a
     * contested record (version chosen so that origins tie and the origin id decides), adds to a
     * shared set, removes an own earlier member, sometimes deletes a record, and writes one key unique
     * to the command (so acknowledged writes can be found afterwards).
     */
    private static final class Load {
        final Replica replica;
        final int total;
        final Consumer<Acknowledgement> onAck;
        final Semaphore inFlight = new Semaphore(64);
        final AtomicInteger done = new AtomicInteger();
        final ConcurrentLinkedQueue<Acknowledgement> acks = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Integer> acknowledgedIndexes = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();

        Load(Replica replica, int total, Consumer<Acknowledgement> onAck) {
            this.replica = replica;
            this.total = total;
            this.onAck = onAck;
        }

        static String uniqueKey(String origin, int index) {
            return "t:idx:" + origin + ":" + index;
        }

        void start() {
            Thread thread = new Thread(this::run, "load-" + replica.id());
            thread.setDaemon(true);
            thread.start();
        }

        boolean finished() {
            return done.get() == total;
        }

        private void run() {
            for (int i = 1; i <= total; i++) {
                int index = i;
                inFlight.acquireUninterruptibly();
                List<Operation> operations = new ArrayList<>();
                operations.add(new Operation.PutIfNewer("t:rec:" + (i % 40), i / 3,
                        Map.of("by", replica.id(), "i", Integer.toString(i))));
                operations.add(new Operation.SetAdd("t:set:" + (i % 10), replica.id() + "-" + i));
                if (i > 5) {
                    operations.add(new Operation.SetRemove("t:set:" + ((i - 5) % 10), replica.id() + "-" + (i - 5)));
                }
                if (i % 7 == 0) {
                    operations.add(new Operation.DeleteIfNewer("t:rec:" + ((i + 3) % 40), i / 3));
                }
                operations.add(new Operation.Put(uniqueKey(replica.id(), i), "1"));
                replica.submit(operations).whenComplete((ack, error) -> {
                    if (error == null) {
                        acks.add(ack);
                        acknowledgedIndexes.add(index);
                        onAck.accept(ack);
                    } else {
                        errors.add(error instanceof CompletionException ? error.getCause() : error);
                    }
                    inFlight.release();
                    done.incrementAndGet();
                });
            }
        }
    }
}
