package eu.vpki.ea;

import eu.vpki.common.etsi.crypto.EcdsaSignature;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.ts102941.EnrolmentMessages;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.fleet.EcRecord;
import eu.vpki.common.replication.CommandId;
import eu.vpki.common.replication.ReplicationConfig;
import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.ea.testing.ClusterMember;
import eu.vpki.ea.testing.TestReplicas;
import eu.vpki.operator.core.Inputs;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue #38, "every station keeps exactly one ACTIVE EC": two EA replicas each accept an enrolment of the same station
 * from the same read of the fleet state (neither has seen the other's EC: an OBU retrying at another EA address), both
 * answered with an EC. The EA's signer holds each enrolment at the EC's signature, which comes after its read and
 * before its command, until both have read: the race is made, not hoped for. Every replica must end with one state,
 * the station's latest-EC pointer on one of the two ECs, that EC the only ACTIVE one, the other SUPERSEDED and refused
 * by the EA. Before the pointer rule (apply-command.lua, {@code PutPointerIfNewer}) both ECs stayed ACTIVE everywhere.
 */
class ConcurrentEnrolmentTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);
    private static final StationMessages MESSAGES = new StationMessages(TestPki.RANDOM, new DataEncryption(TestPki.RANDOM));
    private static final Clock CLOCK = Clock.offset(Clock.systemUTC(), Duration.between(Instant.now(), TestPki.NOW));
    private static final Duration CONVERGENCE = Duration.ofSeconds(60);

    private final List<ClusterMember> members = new ArrayList<>();
    private final List<RedisFixture> redis = new ArrayList<>();
    private final ReadBarrier barrier = new ReadBarrier();
    private final Map<HashedId8, Enrolled> keys = new ConcurrentHashMap<>();
    private final ExecutorService threads = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        threads.shutdownNow();
        members.forEach(ClusterMember::close);
        redis.forEach(RedisFixture::stop);
    }

    /** The three races: two initial enrolments, two re-enrolments with one EC, an initial enrolment and a re-enrolment. */
    @ParameterizedTest
    @CsvSource({"FIFO, ASYNC", "TOTAL, ASYNC", "FIFO, SYNC", "TOTAL, SYNC"})
    void sameStationEnrolledAtTwoReplicasFromOneRead_everyReplicaKeepsExactlyOneActiveEc(Order order, Propagation propagation)
            throws Exception {
        List<Integer> ports = List.of(TestReplicas.freePort(), TestReplicas.freePort());
        ClusterMember a = start(0, ports, order, propagation);
        ClusterMember b = start(1, ports, order, propagation);
        await().atMost(Duration.ofMinutes(2)).until(() -> members.stream()
                .allMatch(m -> m.replica.viewSize() == 2 && m.replica.status().serving()));
        List<SimulatedStation> stations = List.of(SimulatedStation.generate("RACE-INITIAL", EtsiCurve.NIST_P256, TestPki.RANDOM),
                SimulatedStation.generate("RACE-RE", EtsiCurve.NIST_P256, TestPki.RANDOM),
                SimulatedStation.generate("RACE-MIXED", EtsiCurve.NIST_P256, TestPki.RANDOM));
        b.replica.awaitApplied(CommandId.parse(register(a, stations)), Duration.ofSeconds(20));

        List<HashedId8> initial = race(stations.get(0), a, true, b, true);
        List<HashedId8> re = race(stations.get(1), a, false, b, false);
        List<HashedId8> mixed = race(stations.get(2), a, true, b, false);

        await().atMost(CONVERGENCE).pollInterval(Duration.ofMillis(200))
                .until(() -> members.stream().map(m -> m.replica.stateDigest()).distinct().count() == 1);
        for (ClusterMember m : members) {
            requireOneActive(m, stations.get(0), initial);
            requireOneActive(m, stations.get(1), re);
            requireOneActive(m, stations.get(2), mixed);
        }
        // the EA refuses the loser, wherever the station kept it, and answers the winner
        for (int i = 0; i < stations.size(); i++) {
            SimulatedStation station = stations.get(i);
            List<HashedId8> issued = List.of(initial, re, mixed).get(i);
            List<HashedId8> racing = issued.subList(issued.size() - 2, issued.size());
            HashedId8 winner = b.fleet.latestEc(station.canonicalId()).map(EcRecord::id).orElseThrow();
            HashedId8 loser = racing.get(0).equals(winner) ? racing.get(1) : racing.get(0);
            requireReEnrolment(members.get(i % 2), station, loser, false);
            requireReEnrolment(members.get(i % 2), station, winner, true);
        }
    }

    /**
     * Enrols {@code station} at {@code first} (initial or re-enrolment) and at {@code second} at once, both from the
     * same read; for a re-enrolment the station is enrolled before (at {@code first}, applied at both). Both must be
     * answered with an EC. Returns every EC the station was issued, the two racing ones last.
     */
    private List<HashedId8> race(SimulatedStation station, ClusterMember first, boolean firstInitial, ClusterMember second,
                                 boolean secondInitial)
            throws Exception {
        List<HashedId8> issued = new ArrayList<>();
        if (!firstInitial || !secondInitial) {
            StationMessages.Request enrolment = MESSAGES.enrolment(station, PKI.ea, CLOCK.instant());
            assertThat(MESSAGES.readEnrolment(first.enrolment.enrol(enrolment.body()), enrolment, PKI.ea).ok()).isTrue();
            HashedId8 current = station.enrolmentCredential().hashedId8();
            issued.add(current);
            for (ClusterMember m : members) {
                await().atMost(CONVERGENCE).until(() -> m.fleet.ec(current).isPresent());
            }
        }
        StationMessages.Request one = request(station, firstInitial);
        StationMessages.Request other = request(station, secondInitial);
        barrier.expect(2);
        Future<byte[]> oneAnswer = threads.submit(() -> barrier.enrol(first, one));
        Future<byte[]> otherAnswer = threads.submit(() -> barrier.enrol(second, other));
        for (var answer : List.of(new Answer(oneAnswer, one, first), new Answer(otherAnswer, other, second))) {
            EnrolmentMessages.EcResult result = MESSAGES.readEnrolment(answer.body().get(2, TimeUnit.MINUTES), answer.request(),
                    PKI.ea);
            assertThat(result.ok()).as("%s at %s: %s", station.canonicalId(), answer.at().id, result.responseCode()).isTrue();
            EtsiCertificate ec = result.enrolmentCredential().orElseThrow();
            issued.add(ec.hashedId8());
            keys.put(ec.hashedId8(), new Enrolled(answer.request().newKey(), ec));
        }
        return issued;
    }

    /** An EC one of the racing requests got, with the key it certifies: what the station keeps of it. */
    private record Enrolled(EtsiKeyPair key, EtsiCertificate ec) {
    }

    private record Answer(Future<byte[]> body, StationMessages.Request request, ClusterMember at) {
    }

    private static StationMessages.Request request(SimulatedStation station, boolean initial) {
        return initial ? MESSAGES.enrolment(station, PKI.ea, CLOCK.instant()) : MESSAGES.reEnrolment(station, PKI.ea, CLOCK.instant());
    }

    /**
     * At {@code m}: the pointer on one of the two racing ECs, that one ACTIVE, every other EC of the station SUPERSEDED,
     * every EC stored.
     */
    private void requireOneActive(ClusterMember m, SimulatedStation station, List<HashedId8> issued) {
        String id = station.canonicalId();
        List<HashedId8> racing = issued.subList(issued.size() - 2, issued.size());
        HashedId8 latest = m.fleet.latestEc(id).map(EcRecord::id).orElseThrow();
        assertThat(racing).as("the latest EC of %s at %s is one of the racing ones", id, m.id).contains(latest);
        List<HashedId8> active = issued.stream()
                .filter(ec -> m.fleet.ec(ec).orElseThrow(() -> new AssertionError("EC " + ec + " missing at " + m.id))
                        .status() == EcRecord.Status.ACTIVE)
                .toList();
        assertThat(active).as("ACTIVE ECs of %s at %s (issued: %s)", id, m.id, issued).containsExactly(latest);
    }

    /** A re-enrolment of {@code station} signed with its EC {@code ec} (as the station kept it) is answered, or refused. */
    private void requireReEnrolment(ClusterMember at, SimulatedStation station, HashedId8 ec, boolean answered) {
        Enrolled kept = keys.get(ec);
        station.enrolled(kept.key(), kept.ec());
        StationMessages.Request request = MESSAGES.reEnrolment(station, PKI.ea, CLOCK.instant());
        EnrolmentMessages.EcResult result = MESSAGES.readEnrolment(at.enrolment.enrol(request.body()), request, PKI.ea);
        assertThat(result.ok()).as("re-enrolment of %s with EC %s at %s: %s", station.canonicalId(), ec, at.id, result.responseCode())
                .isEqualTo(answered);
    }

    private ClusterMember start(int index, List<Integer> ports, Order order, Propagation propagation) {
        RedisFixture server = RedisFixture.start();
        redis.add(server);
        ReplicationConfig config = TestReplicas.config("race-" + ports.get(0), "m" + index, index, ports, 2, order, propagation);
        ClusterMember member = new ClusterMember(config, server, PKI, CLOCK, barrier::wrap);
        members.add(member);
        return member.connect();
    }

    private static String register(ClusterMember registrar, List<SimulatedStation> stations) {
        List<Inputs.Station> batch = stations.stream().map(s -> new Inputs.Station(s.canonicalId(), s.curve().name(), s.canonicalKeyHex(),
                List.of(new Inputs.Permission(36L, "bitmap", "01fffc")), "P365D", null)).toList();
        return registrar.registration.register("op-0", new Inputs.Batch(batch)).version();
    }

    /**
     * Holds each of the racing enrolments at its first signature by the EA (the EC's: after the enrolment read the
     * station and its latest EC, before it submits its command) until every one of them got there. A deadlock guard,
     * not a timing: an enrolment refused before its signature leaves the other waiting, and the test fails.
     */
    private static final class ReadBarrier {
        private final ThreadLocal<Boolean> racing = ThreadLocal.withInitial(() -> false);
        private volatile CountDownLatch all = new CountDownLatch(0);

        void expect(int enrolments) {
            all = new CountDownLatch(enrolments);
        }

        byte[] enrol(ClusterMember at, StationMessages.Request request) {
            racing.set(true);
            try {
                return at.enrolment.enrol(request.body());
            } finally {
                racing.set(false);
            }
        }

        EtsiSigner wrap(EtsiSigner signer) {
            return new EtsiSigner() {
                @Override
                public EtsiPublicKey publicKey() {
                    return signer.publicKey();
                }

                @Override
                public EcdsaSignature signDigest(byte[] digest) {
                    if (racing.get()) {
                        racing.set(false);
                        CountDownLatch latch = all;
                        latch.countDown();
                        try {
                            if (!latch.await(2, TimeUnit.MINUTES)) {
                                throw new IllegalStateException("the other racing enrolment never reached its EC's signature");
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException(e);
                        }
                    }
                    return signer.signDigest(digest);
                }
            };
        }
    }
}
