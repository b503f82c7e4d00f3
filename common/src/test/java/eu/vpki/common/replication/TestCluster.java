package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.common.testing.TestPorts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jgroups.Address;
import org.jgroups.protocols.DISCARD;
import org.jgroups.protocols.TP;
import org.jgroups.stack.ProtocolStack;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

/**
 * Replicas in one JVM for cluster tests: member {@code i} has replica id {@code r<i>}, its own JGroups
 * port (TCP on 127.0.0.1, TCPPING over every member's port) and its own real redis-server, and can be
 * stopped and started again with the same id, port and Redis. Network faults are JGroups' own
 * {@code DISCARD} inserted above the transport: a partition makes each member drop whatever it
 * receives from the other side.
 */
final class TestCluster implements AutoCloseable {

    static final Duration CONVERGENCE = Duration.ofSeconds(60);
    static final ReplicationConfig.Timeouts TIMEOUTS = new ReplicationConfig.Timeouts(Duration.ofSeconds(5),
            Duration.ofSeconds(20), Duration.ofMillis(500), Duration.ofSeconds(5));

    /** One member slot: a fixed id, port and Redis, and the replica currently running in it (if any). */
    final class Member {
        final int index;
        final RedisFixture redis;
        final JedisPool pool;
        int port;
        Replica replica;
        SimpleMeterRegistry registry;

        Member(int index, RedisFixture redis) {
            this.index = index;
            this.redis = redis;
            this.pool = redis.newPool();
            this.port = freePort();
        }

        String id() {
            return "r" + index;
        }

        Replica replica() {
            return replica;
        }

        /** Stops this member's replica (graceful leave). */
        void stop() {
            if (replica != null) {
                replica.close();
                replica = null;
            }
        }

        Address address() {
            return replica.channel().getAddress();
        }

        boolean exists(String key) {
            try (Jedis jedis = pool.getResource()) {
                return jedis.exists(key);
            }
        }
    }

    private final String clusterName;
    private final Order order;
    private final Propagation propagation;
    private final int expectedMembers;
    private final ReplicatedKeyspace keyspace;
    private final List<Member> members = new ArrayList<>();
    private final List<Replica> started = new ArrayList<>();
    /** Each member's transport security by replica id; {@link ReplicationConfig.Tls#OFF} unless {@link #withTls}. */
    private java.util.function.Function<String, ReplicationConfig.Tls> tls = id -> ReplicationConfig.Tls.OFF;

    /** Each member's clock by replica id; the system clock unless {@link #withClocks}. */
    private java.util.function.Function<String, Clock> clocks = id -> Clock.systemUTC();

    private long maxLogCommands = ReplicationConfig.DEFAULT_MAX_LOG_COMMANDS;
    /** Wraps each member's origin credentials (a test that counts their checks); none unless {@link #withCredentials}. */
    private java.util.function.UnaryOperator<OriginCredentials> credentialsWrapper = credentials -> credentials;

    TestCluster(List<RedisFixture> redis, Order order, Propagation propagation) {
        this(redis, order, propagation, redis.size());
    }

    TestCluster(List<RedisFixture> redis, Order order, Propagation propagation, int expectedMembers) {
        this(redis, order, propagation, expectedMembers, ReplicaClusterTest.KEYSPACE);
    }

    TestCluster(List<RedisFixture> redis, Order order, Propagation propagation, int expectedMembers, ReplicatedKeyspace keyspace) {
        this.keyspace = keyspace;
        this.order = order;
        this.propagation = propagation;
        this.expectedMembers = expectedMembers;
        for (int i = 0; i < redis.size(); i++) {
            members.add(new Member(i, redis.get(i)));
        }
        this.clusterName = "test-" + members.get(0).port;
    }

    /** Mutual TLS and signed commands for every member started from now on (its key store by replica id). */
    TestCluster withTls(java.util.function.Function<String, ReplicationConfig.Tls> transportSecurity) {
        this.tls = transportSecurity;
        return this;
    }

    /** Each member started from now on gets {@code wrapper} applied to its origin credentials (with TLS). */
    TestCluster withCredentials(java.util.function.UnaryOperator<OriginCredentials> wrapper) {
        this.credentialsWrapper = wrapper;
        return this;
    }

    /** Command logs bounded to {@code commands} per origin for every member started from now on. */
    TestCluster withMaxLogCommands(long commands) {
        this.maxLogCommands = commands;
        return this;
    }

    /** Each member started from now on gets the clock {@code clock} gives for its replica id. */
    TestCluster withClocks(java.util.function.Function<String, Clock> clock) {
        this.clocks = clock;
        return this;
    }

    String clusterName() {
        return clusterName;
    }

    /** Every member's {@code host[port]}, as TCPPING lists them. */
    String initialHosts() {
        return members.stream().map(m -> "127.0.0.1[" + m.port + "]").collect(Collectors.joining(","));
    }

    Member member(int index) {
        return members.get(index);
    }

    List<Member> members() {
        return members;
    }

    /** Starts every member and waits until all serve. */
    void startAll() {
        for (int i = 0; i < members.size(); i++) {
            start(i);
        }
        awaitServing(members.stream().map(member -> member.index).toArray(Integer[]::new));
    }

    /** Starts member {@code index} with the test timeouts. */
    Replica start(int index) {
        return start(index, TIMEOUTS);
    }

    /** Starts member {@code index} with {@code timeouts}. */
    Replica start(int index, ReplicationConfig.Timeouts timeouts) {
        return start(index, timeouts, ReplicationConfig.DEFAULT_STATUS_INTERVAL);
    }

    /** Starts member {@code index}; retries on another port if its probed free port was taken meanwhile. */
    Replica start(int index, ReplicationConfig.Timeouts timeouts, Duration statusInterval) {
        Member member = members.get(index);
        for (int attempt = 1;; attempt++) {
            try {
                return startOnce(member, timeouts, statusInterval);
            } catch (ReplicationException e) {
                if (attempt == 3 || !causedByBind(e)) {
                    throw e;
                }
                member.port = freePort();
            }
        }
    }

    private Replica startOnce(Member member, ReplicationConfig.Timeouts timeouts, Duration statusInterval) {
        ReplicationConfig config = new ReplicationConfig(clusterName, member.id(), order, propagation, "127.0.0.1",
                member.port, new ReplicationConfig.Discovery.TcpPing(initialHosts()), expectedMembers, timeouts,
                ReplicationConfig.DEFAULT_APPLY_GROUPING, statusInterval, tls.apply(member.id())).withMaxLogCommands(maxLogCommands);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Replica replica = new Replica(config, keyspace, member.pool, clocks.apply(member.id()), registry,
                config.tls().enabled() ? credentialsWrapper.apply(credentials(config.tls())) : null);
        try {
            replica.connect();
        } catch (ReplicationException e) {
            replica.close();
            throw e;
        }
        member.replica = replica;
        member.registry = registry;
        started.add(replica);
        return replica;
    }

    private static boolean causedByBind(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.BindException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Cuts the network between {@code side} and every other running member, both ways: each member
     * drops what it receives from the other side (JGroups {@code DISCARD} above the transport).
     */
    void partition(Collection<Integer> side) {
        List<Member> running = members.stream().filter(m -> m.replica != null).toList();
        for (Member member : running) {
            boolean inside = side.contains(member.index);
            Set<Address> otherSide = running.stream().filter(m -> side.contains(m.index) != inside)
                    .map(Member::address).collect(Collectors.toSet());
            discard(member).addIgnoredMembers(otherSide.toArray(Address[]::new));
        }
    }

    /** Makes {@code receiver} drop everything it receives from {@code sender}. */
    void drop(int receiver, int sender) {
        discard(members.get(receiver)).addIgnoreMember(members.get(sender).address());
    }

    /** Undoes {@link #drop}. */
    void undrop(int receiver, int sender) {
        discard(members.get(receiver)).removeIgnoredMember(members.get(sender).address());
    }

    /** Removes every network fault. */
    void heal() {
        for (Member member : members) {
            if (member.replica != null) {
                DISCARD discard = member.replica.channel().getProtocolStack().findProtocol(DISCARD.class);
                if (discard != null) {
                    discard.resetIgnoredMembers();
                }
            }
        }
    }

    private static DISCARD discard(Member member) {
        ProtocolStack stack = member.replica.channel().getProtocolStack();
        DISCARD discard = stack.findProtocol(DISCARD.class);
        if (discard == null) {
            discard = new DISCARD();
            discard.setAddress(member.address());
            try {
                stack.insertProtocol(discard, ProtocolStack.Position.ABOVE, TP.class);
            } catch (Exception e) {
                throw new IllegalStateException("cannot insert DISCARD into " + member.id() + "'s stack", e);
            }
        }
        return discard;
    }

    /** Waits until each of {@code indexes} sees a view of {@code size} members. */
    void awaitViewSize(int size, Integer... indexes) {
        await().atMost(CONVERGENCE).until(() -> Stream.of(indexes)
                .allMatch(i -> members.get(i).replica != null && members.get(i).replica.viewSize() == size));
    }

    /** Waits until each of {@code indexes} serves (in a majority, caught up: {@link ReplicaStatus#serving()}). */
    void awaitServing(Integer... indexes) {
        await().atMost(CONVERGENCE).until(() -> Stream.of(indexes)
                .allMatch(i -> members.get(i).replica != null && members.get(i).replica.status().serving()));
    }

    /**
     * Submits {@code operations} at member {@code index} and waits for the acknowledgement, trying again
     * for as long as the replica refuses because it does not serve at that moment. Being in service is
     * not a lasting property: a replica stops serving whenever no majority echoed one of its reports
     * within the lease ({@code NO_MAJORITY}: four status intervals, 0.4 s with 100 ms reports, and the
     * echo of a report already takes up to two intervals, so a report round trip that a loaded machine
     * delays by two more intervals lapses it until the next one) or while it catches up
     * ({@code NOT_SERVING}). Such a refusal is made before anything is numbered or sent
     * ({@link Replica#submit}), so trying again cannot write twice; it is what a client of the EA or the
     * Operator does with their 503. For the writes a test makes to set the scene, never for a test of
     * refusals.
     */
    Acknowledgement submitWhenServing(int index, List<Operation> operations) {
        AtomicReference<Acknowledgement> acknowledged = new AtomicReference<>();
        await().atMost(CONVERGENCE).pollInterval(Duration.ofMillis(20)).until(() -> {
            try {
                acknowledged.set(members.get(index).replica.submit(operations).join());
                return true;
            } catch (CompletionException e) {
                if (e.getCause() instanceof ReplicationException refused
                        && (refused.code() == ErrorCode.NO_MAJORITY
                                || refused.code() == ErrorCode.NOT_SERVING)) {
                    return false;
                }
                throw e;
            }
        });
        return acknowledged.get();
    }

    /** Waits until the given members hold the same replicated state. */
    void awaitSameState(Integer... indexes) {
        await().atMost(CONVERGENCE).pollInterval(Duration.ofMillis(200))
                .until(() -> Stream.of(indexes).map(i -> members.get(i).replica.stateDigest()).distinct().count() == 1);
    }

    @Override
    public void close() {
        started.forEach(Replica::close);
        members.forEach(m -> m.pool.close());
    }

    /** The origin credentials from the same stores as {@code tls} (as the services make them); null without TLS. */
    static OriginCredentials credentials(ReplicationConfig.Tls tls) {
        if (!tls.enabled()) {
            return null;
        }
        return eu.vpki.common.etsi.crypto.DeploymentCredentials.read(tls.keyStore(), tls.keyStorePassword().toCharArray(),
                tls.trustStore(), tls.trustStorePassword().toCharArray(), new java.security.SecureRandom());
    }

    static int freePort() {
        return TestPorts.free();
    }
}
