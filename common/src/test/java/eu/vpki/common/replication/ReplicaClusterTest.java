package eu.vpki.common.replication;

import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.RedisFixture;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jgroups.protocols.DISCARD;
import org.jgroups.protocols.TP;
import org.jgroups.stack.ProtocolStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
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
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Three (or four) replicas in one JVM, TCP on 127.0.0.1 with TCPPING, each with its own redis-server.
 */
class ReplicaClusterTest {

    private static final ReplicatedKeyspace KEYSPACE = ReplicatedKeyspace.of("t:rec:", "t:set:", "t:idx:");
    private static final Duration CONVERGENCE = Duration.ofSeconds(45);
    /**
     * A member whose discovery missed the coordinator's answer (a busy machine) starts alone and joins
     * by merge: MERGE3 checks for other views every 1.6 x max_interval = 48 s, so a view can take that
     * long plus the merge to form (it did: 45 s was not enough under load).
     */
    private static final Duration VIEW_FORMATION = Duration.ofMinutes(2);
    private static final List<RedisFixture> REDIS = new ArrayList<>();

    private final List<Replica> replicas = new ArrayList<>();
    private final List<JedisPool> pools = new ArrayList<>();
    private final List<SimpleMeterRegistry> registries = new ArrayList<>();
    private List<Integer> ports;

    @BeforeAll
    static void startRedis() {
        for (int i = 0; i < 3; i++) {
            REDIS.add(RedisFixture.start());
        }
    }

    @AfterAll
    static void stopRedis() {
        REDIS.forEach(RedisFixture::stop);
    }

    @BeforeEach
    void freshState() {
        REDIS.forEach(RedisFixture::flushAll);
        ports = new java.util.ArrayList<>(List.of(freePort(), freePort(), freePort()));
    }

    @AfterEach
    void closeReplicas() {
        replicas.forEach(Replica::close);
        pools.forEach(JedisPool::close);
    }

    static Stream<Arguments> modes() {
        return Stream.of(Order.values()).flatMap(order -> Stream.of(Propagation.values())
                .map(propagation -> Arguments.of(order, propagation)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modes")
    void concurrentSubmitsFromThreeReplicas_convergeToOneState(Order order, Propagation propagation) {
        Replica a = start(0, order, propagation, REDIS.get(0));
        Replica b = start(1, order, propagation, REDIS.get(1));
        Replica c = start(2, order, propagation, REDIS.get(2));
        awaitViewSize(3, a, b, c);
        ConcurrentLinkedQueue<String> notVisible = new ConcurrentLinkedQueue<>();
        List<Load> loads = Stream.of(a, b, c).map(origin -> new Load(origin, 700, ack -> {
            if (propagation == Propagation.SYNC) {
                replicas.stream().filter(other -> !other.hasApplied(ack.token()))
                        .forEach(other -> notVisible.add(ack.token() + " not applied at " + other.id()));
            }
        })).toList();

        loads.forEach(Load::start);
        awaitFinished(loads);

        assertThat(loads).allSatisfy(load -> {
            assertThat(load.errors).isEmpty();
            assertThat(load.acks).hasSize(700);
        });
        assertThat(notVisible).as("SYNC acknowledgements visible at every replica").isEmpty();
        awaitSameState(a, b, c);
        for (Load load : loads) {
            Acknowledgement last = load.acks.stream().max((x, y) -> Long.compare(x.token().seq(), y.token().seq()))
                    .orElseThrow();
            for (Replica replica : List.of(a, b, c)) {
                replica.awaitApplied(last.token(), Duration.ofSeconds(5));
            }
        }
        SimpleMeterRegistry metricsOfB = registries.get(1);
        for (String origin : List.of("r0", "r1", "r2")) {
            assertThat(metricsOfB.get("vpki.replication.commands").tag("origin", origin).tag("outcome", "applied")
                    .counter().count()).isEqualTo(700);
        }
        assertThat(metricsOfB.get("vpki.replication.view.size").gauge().value()).isEqualTo(3);
        assertThat(metricsOfB.get("vpki.replication.submit.latency").timer().count()).isEqualTo(700);
        assertThat(metricsOfB.get("vpki.replication.apply.lag").timer().count()).isEqualTo(3 * 700);
        try (Jedis jedis = pools.get(1).getResource()) {
            assertThat(jedis.keys("t:idx:*")).hasSize(3 * 700);
            assertThat(StoredRecord.from(jedis.hgetAll("t:rec:0"))).isPresent();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modes")
    void replicaJoiningMidLoad_catchesUpAndConverges(Order order, Propagation propagation) {
        Replica a = start(0, order, propagation, REDIS.get(0));
        Replica b = start(1, order, propagation, REDIS.get(1));
        awaitViewSize(2, a, b);
        Load loadA = new Load(a, 600, ack -> { });
        Load loadB = new Load(b, 600, ack -> { });
        loadA.start();
        loadB.start();
        await().atMost(CONVERGENCE).until(() -> loadA.acks.size() + loadB.acks.size() >= 300);

        Replica c = start(2, order, propagation, REDIS.get(2));
        Load loadC = new Load(c, 200, ack -> { });
        loadC.start();
        awaitFinished(List.of(loadA, loadB, loadC));

        assertThat(List.of(loadA, loadB, loadC)).allSatisfy(load -> assertThat(load.errors).isEmpty());
        awaitSameState(a, b, c);
        try (Jedis jedis = pools.get(2).getResource()) {
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
            ports = new java.util.ArrayList<>(List.of(freePort(), freePort(), freePort())); // after the victim's Redis took its port
            Replica a = start(0, order, Propagation.SYNC, REDIS.get(0));
            Replica b = start(1, order, Propagation.SYNC, REDIS.get(1));
            Replica victim = start(2, order, Propagation.SYNC, victimRedis);
            awaitViewSize(3, a, b, victim);
            List<Load> loads = Stream.of(a, b, victim).map(origin -> new Load(origin, 500, ack -> { })).toList();
            loads.forEach(Load::start);
            await().atMost(CONVERGENCE).until(() -> loads.stream().mapToInt(load -> load.acks.size()).sum() >= 300);

            if (crash == Crash.KILL_ITS_REDIS) {
                victimRedis.kill();
                await().atMost(CONVERGENCE).until(() -> victim.status().state() == ReplicaStatus.State.FAILED);
                assertThat(victim.status().serving()).isFalse();
                assertThat(victim.status().detail()).isNotBlank();
            } else {
                victim.close();
                assertThat(victim.status().state()).isEqualTo(ReplicaStatus.State.CLOSED);
            }
            awaitFinished(loads);

            awaitViewSize(2, a, b);
            assertThat(loads.get(0).errors).as("errors at a").allSatisfy(ReplicaClusterTest::isOutcomeUnknown);
            assertThat(loads.get(1).errors).as("errors at b").allSatisfy(ReplicaClusterTest::isOutcomeUnknown);
            assertThat(loads.get(0).acks.size() + loads.get(1).acks.size()).isGreaterThan(500);
            awaitSameState(a, b);
            for (Load load : loads) {
                for (int index : load.acknowledgedIndexes) {
                    String key = Load.uniqueKey(load.replica.id(), index);
                    for (JedisPool survivor : pools.subList(0, 2)) {
                        try (Jedis jedis = survivor.getResource()) {
                            assertThat(jedis.exists(key)).as("acknowledged write %s present at survivor", key).isTrue();
                        }
                    }
                }
            }
        }
    }

    /**
     * Without FLUSH, JGroups may deliver a departing member's last multicast to some survivors only;
     * here b drops everything from c, so c's last command reaches a alone before c leaves. The
     * survivors must still end in one state: a redelivers c's recent commands and b applies the one
     * it lacks.
     */
    @ParameterizedTest
    @EnumSource(Propagation.class)
    void departedReplicasLastCommand_reachingOneSurvivorOnly_reachesTheOtherToo(Propagation propagation) throws Exception {
        Replica a = start(0, Order.FIFO, propagation, REDIS.get(0));
        Replica b = start(1, Order.FIFO, propagation, REDIS.get(1));
        Replica c = start(2, Order.FIFO, propagation, REDIS.get(2));
        awaitViewSize(3, a, b, c);
        CommandId seen = c.submit(List.of(new Operation.Put("t:idx:seen-by-all", "1"))).join().token();
        a.awaitApplied(seen, Duration.ofSeconds(5));
        b.awaitApplied(seen, Duration.ofSeconds(5));

        DISCARD dropFromC = new DISCARD().addIgnoreMember(c.channel().getAddress());
        dropFromC.setAddress(b.channel().getAddress());
        b.channel().getProtocolStack().insertProtocol(dropFromC, ProtocolStack.Position.ABOVE, TP.class);
        CommandId lost = new CommandId(c.id(), seen.seq() + 1);
        c.submit(List.of(new Operation.Put("t:idx:only-a-received", "2"), new Operation.SetAdd("t:set:s", "x")));
        a.awaitApplied(lost, Duration.ofSeconds(5));
        assertThat(b.hasApplied(lost)).isFalse();

        c.close();
        awaitViewSize(2, a, b);

        b.awaitApplied(lost, Duration.ofSeconds(20));
        try (Jedis jedis = pools.get(1).getResource()) {
            assertThat(jedis.get("t:idx:only-a-received")).isEqualTo("2");
            assertThat(jedis.smembers("t:set:s")).containsExactly("x");
        }
        awaitSameState(a, b);
    }

    @Test
    void loneReplica_refusesWritesUntilAMajorityIsPresent() throws Exception {
        Replica a = start(0, Order.TOTAL, Propagation.SYNC, REDIS.get(0));

        assertThat(a.acceptsWrites()).isFalse();
        assertThat(a.status().state()).isEqualTo(ReplicaStatus.State.MINORITY);
        assertThat(a.status().serving()).isFalse();
        assertThat(a.status().viewSize()).isEqualTo(1);
        assertThatThrownBy(() -> a.submit(List.of(new Operation.Put("t:idx:lonely", "1"))).join())
                .isInstanceOf(CompletionException.class)
                .cause().isInstanceOfSatisfying(ReplicationException.class,
                        e -> assertThat(e.code()).isEqualTo(ReplicationException.Code.NO_MAJORITY));

        assertThatThrownBy(() -> a.submitAndWait(List.of(new Operation.Put("t:idx:lonely", "2")), Duration.ofSeconds(5)))
                .isInstanceOf(java.util.concurrent.ExecutionException.class)
                .cause().isInstanceOfSatisfying(ReplicationException.class,
                        e -> assertThat(e.code()).isEqualTo(ReplicationException.Code.NO_MAJORITY));

        Replica b = start(1, Order.TOTAL, Propagation.SYNC, REDIS.get(1));
        awaitViewSize(2, a, b);
        assertThat(a.status().state()).isEqualTo(ReplicaStatus.State.ACTIVE);
        assertThat(a.status().serving()).isTrue();
        assertThat(a.status().detail()).isEmpty();

        Acknowledgement ack = a.submit(List.of(new Operation.Put("t:idx:together", "1"))).join();
        assertThat(ack.replicas()).isEqualTo(2);
        Acknowledgement waited = b.submitAndWait(List.of(new Operation.Put("t:idx:waited", "1")), Duration.ofSeconds(5));
        assertThat(waited.replicas()).isEqualTo(2);
        assertThat(waited.token().origin()).isEqualTo(b.id());
        try (Jedis jedis = pools.get(0).getResource()) {
            assertThat(jedis.get("t:idx:waited")).isEqualTo("1"); // SYNC: applied at a before b's answer
        }
        try (Jedis jedis = pools.get(1).getResource()) {
            assertThat(jedis.get("t:idx:together")).isEqualTo("1");
            assertThat(jedis.exists("t:idx:lonely")).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void asyncAcknowledgement_tokenGivesReadYourWritesOnAnotherReplica(Order order) {
        Replica a = start(0, order, Propagation.ASYNC, REDIS.get(0));
        Replica b = start(1, order, Propagation.ASYNC, REDIS.get(1));
        awaitViewSize(2, a, b);

        Acknowledgement ack = a.submit(List.of(new Operation.PutIfNewer("t:rec:station-7", 1,
                Map.of("status", "registered")))).join();
        b.awaitApplied(CommandId.parse(ack.token().toString()), Duration.ofSeconds(5));

        try (Jedis jedis = pools.get(1).getResource()) {
            assertThat(StoredRecord.liveFields(jedis.hgetAll("t:rec:station-7"))).contains(Map.of("status", "registered"));
        }
        assertThat(ack.replicas()).isEqualTo(1);
    }

    @Test
    void closedReplica_refusesWrites() {
        Replica a = start(0, Order.FIFO, Propagation.ASYNC, REDIS.get(0), 1);
        a.close();

        assertThatThrownBy(() -> a.submit(List.of(new Operation.Put("t:idx:x", "1"))).join())
                .cause().isInstanceOfSatisfying(ReplicationException.class,
                        e -> assertThat(e.code()).isEqualTo(ReplicationException.Code.NOT_CONNECTED));
    }

    private static boolean isOutcomeUnknown(Throwable error) {
        return error instanceof ReplicationException replication
                && replication.code() == ReplicationException.Code.TIMEOUT_OUTCOME_UNKNOWN;
    }

    private Replica start(int index, Order order, Propagation propagation, RedisFixture redis) {
        return start(index, order, propagation, redis, 3);
    }

    private Replica start(int index, Order order, Propagation propagation, RedisFixture redis, int expectedMembers) {
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(index, order, propagation, redis, expectedMembers);
            } catch (ReplicationException e) {
                // a port probed free can be taken by another process before JGroups binds it: take another one
                if (attempt == 3 || !causedByBind(e)) {
                    throw e;
                }
                ports.set(index, freePort());
            }
        }
    }

    private static boolean causedByBind(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.BindException) {
                return true;
            }
        }
        return false;
    }

    private Replica startOnce(int index, Order order, Propagation propagation, RedisFixture redis, int expectedMembers) {
        String initialHosts = ports.stream().map(port -> "127.0.0.1[" + port + "]").collect(Collectors.joining(","));
        ReplicationConfig config = new ReplicationConfig("test-" + ports.get(0), "r" + index, order, propagation,
                "127.0.0.1", ports.get(index), new ReplicationConfig.Discovery.TcpPing(initialHosts), expectedMembers,
                new ReplicationConfig.Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(20), Duration.ofMillis(500),
                        Duration.ofSeconds(5)));
        JedisPool pool = redis.newPool();
        pools.add(pool);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        registries.add(registry);
        Replica replica = new Replica(config, KEYSPACE, pool, Clock.systemUTC(), registry);
        try {
            replica.connect();
        } catch (ReplicationException e) {
            replica.close();
            throw e;
        }
        replicas.add(replica);
        return replica;
    }

    private static void awaitViewSize(int size, Replica... members) {
        await().atMost(VIEW_FORMATION).until(() -> Stream.of(members).allMatch(member -> member.viewSize() == size));
    }

    private static void awaitFinished(Collection<Load> loads) {
        await().atMost(Duration.ofSeconds(90)).until(() -> loads.stream().allMatch(Load::finished));
    }

    private static void awaitSameState(Replica... members) {
        await().atMost(CONVERGENCE).pollInterval(Duration.ofMillis(200)).until(() ->
                Stream.of(members).map(Replica::stateDigest).distinct().count() == 1);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
