package eu.vpki.ea;

import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.fleet.EcRecord;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.common.replication.CommandId;
import eu.vpki.common.replication.ReplicationConfig;
import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.ea.testing.ClusterMember;
import eu.vpki.ea.testing.SimulatedAa;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import eu.vpki.ea.testing.TestReplicas;
import eu.vpki.operator.core.Inputs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three replicas, each with its own real Redis and a real JGroups member (TCP on 127.0.0.1), each
 * running the EA core and the Operator core, in all four order/propagation modes: concurrent
 * registrations and enrolments through different replicas converge to identical Redis states; in
 * SYNC an acknowledged EC is valid at every other replica at once; a replica crash in SYNC loses no
 * acknowledged EC; a replica joining mid-load catches up.
 */
class FleetClusterTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);
    private static final StationMessages MESSAGES = new StationMessages(TestPki.RANDOM, new DataEncryption(TestPki.RANDOM));
    /** Real time, anchored at the test PKI's "now" so its certificates are valid whatever the date. */
    private static final Clock CLOCK = Clock.offset(Clock.systemUTC(), Duration.between(Instant.now(), TestPki.NOW));
    private static final Duration CONVERGENCE = Duration.ofSeconds(60);
    private static final List<RedisFixture> REDIS = new ArrayList<>();
    private static final EtsiCurve[] CURVES = EtsiCurve.values();

    private final SimulatedAa aa = new SimulatedAa(PKI);
    private final List<ClusterMember> members = new ArrayList<>();
    private final Queue<String> failures = new ConcurrentLinkedQueue<>();
    private final Queue<HashedId8> acknowledged = new ConcurrentLinkedQueue<>();
    private ExecutorService workers;
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
    void fresh() {
        REDIS.forEach(RedisFixture::flushAll);
        ports = List.of(TestReplicas.freePort(), TestReplicas.freePort(), TestReplicas.freePort());
        workers = Executors.newFixedThreadPool(4);
    }

    @AfterEach
    void stop() throws InterruptedException {
        workers.shutdownNow();
        workers.awaitTermination(30, TimeUnit.SECONDS);
        members.forEach(ClusterMember::close);
    }

    static Stream<Arguments> modes() {
        return Stream.of(Order.values()).flatMap(o -> Stream.of(Propagation.values()).map(p -> Arguments.of(o, p)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modes")
    void concurrentRegistrationsAndEnrolmentsThroughDifferentReplicas_convergeToIdenticalState(Order order, Propagation propagation) {
        ClusterMember a = start(0, order, propagation, REDIS.get(0));
        ClusterMember b = start(1, order, propagation, REDIS.get(1));
        ClusterMember c = start(2, order, propagation, REDIS.get(2));
        awaitView(3, a, b, c);

        List<Future<?>> rounds = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            int r = round;
            rounds.add(workers.submit(() -> round(r, members, propagation)));
        }
        awaitDone(rounds);

        assertThat(failures).isEmpty();
        assertThat(acknowledged).hasSize(6 * 8 + 6 * 2);
        awaitIdenticalState(a, b, c);
        for (ClusterMember m : members) {
            assertThat(acknowledged).allSatisfy(ec -> assertThat(m.fleet.ec(ec)).as("EC %s at %s", ec, m.id).isPresent());
            assertThat(m.fleet.fleet("op-0")).hasSize(16);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modes")
    void replicaJoiningMidLoad_catchesUpAndConverges(Order order, Propagation propagation) {
        ClusterMember a = start(0, order, propagation, REDIS.get(0));
        ClusterMember b = start(1, order, propagation, REDIS.get(1));
        awaitView(2, a, b);
        List<Future<?>> rounds = new ArrayList<>();
        AtomicInteger finished = new AtomicInteger();
        for (int round = 0; round < 6; round++) {
            int r = round;
            List<ClusterMember> two = List.of(a, b);
            rounds.add(workers.submit(() -> {
                round(r, two, propagation);
                finished.incrementAndGet();
            }));
        }
        await().atMost(CONVERGENCE).until(() -> finished.get() >= 2);

        ClusterMember c = start(2, order, propagation, REDIS.get(2));
        awaitView(3, a, b, c);
        for (int round = 6; round < 9; round++) {
            int r = round;
            rounds.add(workers.submit(() -> round(r, members, propagation)));
        }
        awaitDone(rounds);

        assertThat(failures).isEmpty();
        awaitIdenticalState(a, b, c);
        assertThat(acknowledged).allSatisfy(ec -> assertThat(c.fleet.ec(ec)).as("EC %s at the joiner", ec).isPresent());
        assertThat(c.fleet.fleet("op-0").size() + c.fleet.fleet("op-1").size() + c.fleet.fleet("op-2").size()).isEqualTo(9 * 8);
    }

    @ParameterizedTest(name = "{0} SYNC")
    @EnumSource(Order.class)
    void killingAReplicaDuringLoad_losesNoAcknowledgedEc(Order order) {
        try (RedisFixture victimRedis = RedisFixture.start()) {
            ports = List.of(TestReplicas.freePort(), TestReplicas.freePort(), TestReplicas.freePort());
            ClusterMember a = start(0, order, Propagation.SYNC, REDIS.get(0));
            ClusterMember b = start(1, order, Propagation.SYNC, REDIS.get(1));
            ClusterMember victim = start(2, order, Propagation.SYNC, victimRedis);
            awaitView(3, a, b, victim);
            List<SimulatedStation> stations = new ArrayList<>();
            for (int i = 0; i < 90; i++) {
                stations.add(SimulatedStation.generate("KILL-" + i, CURVES[i % 3], TestPki.RANDOM));
            }
            for (int batch = 0; batch < 3; batch++) {
                register(a, "op-0", stations.subList(batch * 30, batch * 30 + 30));
            }
            Queue<Integer> refusals = new ConcurrentLinkedQueue<>();
            List<Future<?>> load = new ArrayList<>();
            for (int i = 0; i < stations.size(); i++) {
                SimulatedStation station = stations.get(i);
                ClusterMember at = members.get(i % 3);
                load.add(workers.submit(() -> {
                    StationMessages.Request request = MESSAGES.enrolment(station, PKI.ea, CLOCK.instant());
                    var result = MESSAGES.readEnrolment(at.enrolment.enrol(request.body()), request, PKI.ea);
                    if (result.ok()) {
                        acknowledged.add(station.enrolmentCredential().hashedId8());
                    } else {
                        refusals.add(result.responseCode());
                    }
                }));
            }
            await().atMost(CONVERGENCE).until(() -> acknowledged.size() >= 20);
            victimRedis.kill();
            awaitDone(load);

            awaitView(2, a, b);
            assertThat(refusals).allSatisfy(code -> assertThat(code).isEqualTo(EtsiCodes.Enrolment.DENIEDREQUEST));
            assertThat(acknowledged.size()).isGreaterThanOrEqualTo(60);
            awaitIdenticalState(a, b);
            for (ClusterMember survivor : List.of(a, b)) {
                assertThat(acknowledged).allSatisfy(ec -> assertThat(survivor.fleet.ec(ec)).as("acknowledged EC %s at %s", ec, survivor.id)
                        .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(EcRecord.Status.ACTIVE)));
            }
        }
    }

    /**
     * One operator round: operator {@code r % 3} registers 8 stations through one replica; each is
     * enrolled through another replica (after it applied the registration); in SYNC the new EC is
     * validated at once at the two other replicas; two stations re-enrol, one is suspended.
     */
    private void round(int r, List<ClusterMember> available, Propagation propagation) {
        try {
            int n = available.size();
            ClusterMember registrar = available.get(r % n);
            List<SimulatedStation> stations = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                stations.add(SimulatedStation.generate("R" + r + "-S" + i, CURVES[(r + i) % 3], TestPki.RANDOM));
            }
            String operator = "op-" + (r % 3);
            String token = register(registrar, operator, stations);
            for (int i = 0; i < stations.size(); i++) {
                SimulatedStation station = stations.get(i);
                ClusterMember ea = available.get((r + 1 + i) % n);
                ea.replica.awaitApplied(CommandId.parse(token), Duration.ofSeconds(20));
                enrol(station, ea, available, propagation);
                if (i % 4 == 1) {
                    ClusterMember again = propagation == Propagation.SYNC ? available.get((r + 2 + i) % n) : ea;
                    StationMessages.Request request = MESSAGES.reEnrolment(station, PKI.ea, CLOCK.instant());
                    var result = MESSAGES.readEnrolment(again.enrolment.enrol(request.body()), request, PKI.ea);
                    check(result.ok(), "re-enrolment of " + station.canonicalId() + " at " + again.id + ": " + result.responseCode());
                    if (result.ok()) {
                        acknowledged.add(station.enrolmentCredential().hashedId8());
                    }
                }
            }
            registrar.administration.changeStatus(operator, stations.get(7).canonicalId(), StationStatus.SUSPENDED);
        } catch (RuntimeException e) {
            failures.add("round " + r + ": " + e);
        }
    }

    private void enrol(SimulatedStation station, ClusterMember ea, List<ClusterMember> available, Propagation propagation) {
        StationMessages.Request request = MESSAGES.enrolment(station, PKI.ea, CLOCK.instant());
        var result = MESSAGES.readEnrolment(ea.enrolment.enrol(request.body()), request, PKI.ea);
        check(result.ok(), "enrolment of " + station.canonicalId() + " at " + ea.id + ": " + result.responseCode());
        if (!result.ok()) {
            return;
        }
        acknowledged.add(station.enrolmentCredential().hashedId8());
        if (propagation == Propagation.SYNC) {
            for (ClusterMember other : available) {
                if (other != ea) {
                    OutgoingRequest toEa = aa.forward(MESSAGES.authorization(station, PKI.ea, PKI.aa, SimulatedStation.CAM_DENM,
                            Protection.FULL, CLOCK.instant()),
                            PKI.ea, CLOCK.instant());
                    var validated = aa.read(other.validation.validate(toEa.body()), toEa, PKI.ea);
                    check(validated.ok(), "EC of " + station.canonicalId() + " acknowledged by " + ea.id + " not valid at " + other.id
                            + ": " + validated.responseCode());
                }
            }
        }
    }

    private static String register(ClusterMember registrar, String operator, List<SimulatedStation> stations) {
        List<Inputs.Station> batch = stations.stream().map(s -> new Inputs.Station(s.canonicalId(), s.curve().name(), s.canonicalKeyHex(),
                List.of(new Inputs.Permission(36L, "bitmap", "01fffc"), new Inputs.Permission(37L, "bitmap", "01ffffff")), "P365D", null))
                .toList();
        return registrar.registration.register(operator, new Inputs.Batch(batch)).version();
    }

    private void check(boolean ok, String failure) {
        if (!ok) {
            failures.add(failure);
        }
    }

    private ClusterMember start(int index, Order order, Propagation propagation, RedisFixture redis) {
        ReplicationConfig config = TestReplicas.config("fleet-" + ports.get(0), "m" + index, index, ports, 3, order, propagation);
        ClusterMember member = new ClusterMember(config, redis, PKI, CLOCK);
        members.add(member);
        return member.connect();
    }

    /** A member that starts alone (discovery answer missed on a busy machine) joins by merge (MERGE3, docs/replication.md): allow for it. */
    private static void awaitView(int size, ClusterMember... of) {
        await().atMost(Duration.ofMinutes(2))
                .until(() -> Stream.of(of).allMatch(m -> m.replica.viewSize() == size && m.replica.status().serving()));
    }

    private static void awaitDone(List<Future<?>> futures) {
        await().atMost(Duration.ofSeconds(120)).until(() -> futures.stream().allMatch(Future::isDone));
    }

    private static void awaitIdenticalState(ClusterMember... of) {
        await().atMost(CONVERGENCE).pollInterval(Duration.ofMillis(200))
                .until(() -> Stream.of(of).map(m -> m.replica.stateDigest()).distinct().count() == 1);
    }
}
