package eu.vpki.common.fleet;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.replication.Command;
import eu.vpki.common.replication.CommandId;
import eu.vpki.common.replication.Operation;
import eu.vpki.common.replication.RedisStateMachine;
import eu.vpki.common.replication.ReplicaStatus;
import eu.vpki.common.testing.Interleavings;
import eu.vpki.common.testing.RedisFixtureExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.JedisPool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static eu.vpki.common.replication.RedisStateMachine.ApplyOutcome.APPLIED;
import static eu.vpki.common.replication.RedisStateMachine.ApplyOutcome.DUPLICATE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue #38: enrolments of one station accepted concurrently by different EA replicas (neither having seen the
 * other's EC), as {@code EnrolmentService} builds them ({@link FleetCommands#enrolled} with versions above what was
 * read), applied by the real state machine on a real redis-server in every order FIFO delivery allows, each command
 * delivered twice. Every order must end in one state (same digest), with the latest-EC pointer on the highest EC and
 * that EC the only ACTIVE one. Before the pointer rule the pointer's loser stayed ACTIVE: two ACTIVE ECs.
 */
class ConcurrentEnrolmentsTest {

    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();
    private static final String STATION = "VIN-RACE";

    private JedisPool pool;
    private RedisStateMachine stateMachine;
    private FleetState fleet;

    @BeforeEach
    void connect() {
        REDIS.fixture().flushAll();
        pool = REDIS.fixture().newPool();
        stateMachine = new RedisStateMachine(pool, FleetKeys.KEYSPACE);
        fleet = new FleetState(pool, () -> new ReplicaStatus(ReplicaStatus.State.SERVING, "ea-1", "ea-1~1", 1, 1, 0, 0, "test"));
    }

    @AfterEach
    void close() {
        pool.close();
    }

    /**
     * ea-1 enrols the station (X) and re-enrols it (X to Y); ea-2 enrols it at the same time as X, having read no EC
     * (Z, the same version as X: the tie goes to the origin); ea-3 enrols it having read X, not Y (W, the same version
     * as Y, and superseding X explicitly). W's pointer write is the highest ({@code (1001, ea-3)}): W is the one EC
     * left ACTIVE, in each of the 12 orders.
     */
    @Test
    void racingEnrolmentsOfOneStation_inEveryOrder_leaveExactlyOneActiveEcAndOneState() {
        EcRecord x = ec(1_000);
        EcRecord y = ec(1_001);
        EcRecord z = ec(1_000);
        EcRecord w = ec(1_001);
        Command registration = command("op-1", 1, FleetCommands.register("op-1", List.of(station())));
        List<List<Command>> origins = List.of(
                List.of(command("ea-1", 1, FleetCommands.enrolled(x, Optional.empty())),
                        command("ea-1", 2, FleetCommands.enrolled(y, Optional.of(x.superseded(1_001))))),
                List.of(command("ea-2", 1, FleetCommands.enrolled(z, Optional.empty()))),
                List.of(command("ea-3", 1, FleetCommands.enrolled(w, Optional.of(x.superseded(1_001))))));
        Map<String, EcRecord> ecs = new LinkedHashMap<>(Map.of("X", x, "Y", y, "Z", z, "W", w));

        List<List<Command>> orders = Interleavings.of(origins);
        assertThat(orders).hasSize(12);
        List<String> digests = new ArrayList<>();
        for (List<Command> order : orders) {
            REDIS.fixture().flushAll();
            stateMachine.apply(List.of(registration));
            for (Command command : order) {
                assertThat(stateMachine.apply(List.of(command))).containsExactly(APPLIED);
                assertThat(stateMachine.apply(List.of(command))).as("delivered again").containsExactly(DUPLICATE);
            }

            String applied = order.stream().map(c -> c.id().seq() + "@" + c.id().origin()).toList().toString();
            assertThat(fleet.latestEc(STATION).map(EcRecord::id)).as("latest EC after %s", applied).contains(w.id());
            List<String> active = new ArrayList<>();
            ecs.forEach((name, ec) -> {
                EcRecord stored = fleet.ec(ec.id()).orElseThrow();
                if (stored.status() == EcRecord.Status.ACTIVE) {
                    active.add(name);
                }
                assertThat(stored.certificate()).as("%s keeps its certificate", name).isEqualTo(ec.certificate());
            });
            assertThat(active).as("ACTIVE ECs after %s", applied).containsExactly("W");
            digests.add(stateMachine.digest());
        }
        assertThat(digests).as("one state whatever the order").containsOnly(digests.get(0));
    }

    /**
     * The pointer's loser as EcStationCache keeps it: read ACTIVE (and kept) before the concurrent enrolment whose
     * pointer write replaces the one naming it is applied; that command names neither the loser nor its station's
     * records, and the next read must still see the loser SUPERSEDED.
     */
    @Test
    void ecSupersededByTheRule_isSeenThroughTheEcCache() {
        FleetState cached = FleetState.withEcCache(pool, stateMachine,
                () -> new ReplicaStatus(ReplicaStatus.State.SERVING, "ea-1", "ea-1~1", 1, 1, 0, 0, "test"), 16);
        EcRecord first = ec(1_000);
        EcRecord racing = ec(1_000);
        stateMachine.apply(List.of(command("op-1", 1, FleetCommands.register("op-1", List.of(station())))));
        stateMachine.apply(List.of(command("ea-1", 1, FleetCommands.enrolled(first, Optional.empty()))));
        assertThat(cached.ecWithStation(first.id()).ec().orElseThrow().status()).isEqualTo(EcRecord.Status.ACTIVE);
        assertThat(cached.keptEcWithStation(first.id())).as("kept").isPresent();

        stateMachine.apply(List.of(command("ea-2", 1, FleetCommands.enrolled(racing, Optional.empty()))));

        assertThat(cached.ecWithStation(first.id()).ec().orElseThrow().status()).isEqualTo(EcRecord.Status.SUPERSEDED);
        assertThat(cached.ecWithStation(racing.id()).ec().orElseThrow().status()).isEqualTo(EcRecord.Status.ACTIVE);
    }

    private static StationRecord station() {
        return new StationRecord("op-1", STATION, EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM).publicKey(),
                List.of(PsidSsp.of(Psids.CAM)), Duration.ofHours(24), null, StationStatus.ACTIVE, 5);
    }

    private static EcRecord ec(long version) {
        return new EcRecord(TestPki.fixed().issueEc(EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM)), STATION,
                EcRecord.Status.ACTIVE, version);
    }

    private static Command command(String origin, long seq, List<Operation> operations) {
        return new Command(new CommandId(origin, seq), 0, operations);
    }
}
