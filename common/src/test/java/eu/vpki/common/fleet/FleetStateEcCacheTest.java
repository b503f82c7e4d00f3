package eu.vpki.common.fleet;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.replication.Command;
import eu.vpki.common.replication.CommandId;
import eu.vpki.common.replication.Operation;
import eu.vpki.common.replication.RedisStateMachine;
import eu.vpki.common.replication.ReplicaStatus;
import eu.vpki.common.replication.SnapshotPage;
import eu.vpki.common.replication.SnapshotPages;
import eu.vpki.common.testing.RedisFixtureExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link FleetState#ecWithStation} with an {@link EcStationCache} on a real Redis written by a real
 * state machine: a repeated read is answered without Redis, and every change the state machine applies
 * to the EC, its station or the station's permissions (a revocation, a supersession, a permission
 * change, a state transfer) is seen by the next read.
 */
class FleetStateEcCacheTest {

    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();
    private static final List<PsidSsp> CAM = List.of(PsidSsp.of(Psids.CAM));

    private final AtomicReference<ReplicaStatus> status = new AtomicReference<>(serving("ea-1~1"));
    private JedisPool pool;
    private RedisStateMachine stateMachine;
    private FleetState fleet;
    private long seq;
    private StationRecord station;
    private EcRecord ec;

    private static ReplicaStatus serving(String origin) {
        return new ReplicaStatus(ReplicaStatus.State.SERVING, "ea-1", origin, 1, 1, 0, 0, "test");
    }

    @BeforeEach
    void registerAndEnrolAStation() {
        pool = REDIS.fixture().newPool();
        stateMachine = new RedisStateMachine(pool, FleetKeys.KEYSPACE);
        fleet = FleetState.withEcCache(pool, stateMachine, status::get, 16);
        station = new StationRecord("op-1", "VIN-1", EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM).publicKey(),
                CAM, Duration.ofHours(24), null, StationStatus.ACTIVE, 5);
        apply(FleetCommands.register("op-1", List.of(station)));
        ec = issueEc(10);
        apply(FleetCommands.enrolled(ec, Optional.empty()));
    }

    @AfterEach
    void close() {
        pool.close();
    }

    @Test
    void repeatedRead_isAnsweredWithoutRedis() {
        FleetState.EcAndStation first = fleet.ecWithStation(ec.id());
        long scripts = scriptCalls();

        FleetState.EcAndStation again = fleet.ecWithStation(ec.id());

        assertThat(scriptCalls()).isEqualTo(scripts);
        assertThat(again).isSameAs(first);
        assertThat(again.station().orElseThrow().status()).isEqualTo(StationStatus.ACTIVE);
    }

    @Test
    void revocation_isSeenByTheNextRead() {
        assertThat(fleet.ecWithStation(ec.id()).station().orElseThrow().status()).isEqualTo(StationStatus.ACTIVE);

        apply(FleetCommands.changeStatus(station.withStatus(StationStatus.REVOKED, 6)));

        assertThat(fleet.ecWithStation(ec.id()).station().orElseThrow().status()).isEqualTo(StationStatus.REVOKED);
    }

    @Test
    void permissionChange_isSeenByTheNextRead() {
        assertThat(fleet.ecWithStation(ec.id()).station().orElseThrow().permissions()).isEqualTo(CAM);
        List<PsidSsp> denm = List.of(PsidSsp.of(Psids.DENM));

        apply(FleetCommands.changePermissions(station.withPermissions(denm, 7)));

        assertThat(fleet.ecWithStation(ec.id()).station().orElseThrow().permissions()).isEqualTo(denm);
    }

    @Test
    void supersession_isSeenByTheNextRead() {
        assertThat(fleet.ecWithStation(ec.id()).ec().orElseThrow().status()).isEqualTo(EcRecord.Status.ACTIVE);

        apply(FleetCommands.enrolled(issueEc(20), Optional.of(ec.superseded(20))));

        assertThat(fleet.ecWithStation(ec.id()).ec().orElseThrow().status()).isEqualTo(EcRecord.Status.SUPERSEDED);
    }

    @Test
    void stateTransfer_isSeenByTheNextRead() throws Exception {
        List<SnapshotPage> active = SnapshotPages.read(stateMachine, 1 << 20);
        apply(FleetCommands.changeStatus(station.withStatus(StationStatus.SUSPENDED, 6)));
        assertThat(fleet.ecWithStation(ec.id()).station().orElseThrow().status()).isEqualTo(StationStatus.SUSPENDED);

        SnapshotPages.install(stateMachine, active, active.size());

        assertThat(fleet.ecWithStation(ec.id()).station().orElseThrow().status()).isEqualTo(StationStatus.ACTIVE);
    }

    /**
     * Readers race the state machine (each may read the old value and offer it after the write), and
     * after every apply returns the next read must see what it wrote.
     */
    @Test
    void readsRacingWrites_neverAnswerOlderThanTheLastApply() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> readers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Thread reader = new Thread(() -> {
                while (!stop.get()) {
                    fleet.ecWithStation(ec.id());
                }
            });
            reader.start();
            readers.add(reader);
        }
        try {
            StationRecord current = station;
            for (int i = 0; i < 300; i++) {
                current = current.withStatus(i % 2 == 0 ? StationStatus.SUSPENDED : StationStatus.ACTIVE, current.version() + 1);
                apply(FleetCommands.changeStatus(current));
                assertThat(fleet.ecWithStation(ec.id()).station().orElseThrow().status()).as("after apply %d", i)
                        .isEqualTo(current.status());
            }
        } finally {
            stop.set(true);
            for (Thread reader : readers) {
                reader.join();
            }
        }
    }

    @Test
    void newIncarnationOfTheReplica_readsAgain() {
        fleet.ecWithStation(ec.id());
        long scripts = scriptCalls();
        status.set(serving("ea-1~2"));

        fleet.ecWithStation(ec.id());

        assertThat(scriptCalls()).isEqualTo(scripts + 1);
    }

    private EcRecord issueEc(long version) {
        EtsiCertificate certificate = TestPki.fixed().issueEc(EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM));
        return new EcRecord(certificate, "VIN-1", EcRecord.Status.ACTIVE, version);
    }

    private void apply(List<Operation> operations) {
        assertThat(stateMachine.apply(List.of(new Command(new CommandId("op-1", ++seq), 0, operations))))
                .containsExactly(RedisStateMachine.ApplyOutcome.APPLIED);
    }

    /** EVALSHA calls the Redis server counted so far (the reads' script; applies are counted too). */
    private long scriptCalls() {
        try (Jedis jedis = pool.getResource()) {
            for (String line : jedis.info("commandstats").split("\r?\n")) {
                if (line.startsWith("cmdstat_evalsha:")) {
                    return Long.parseLong(line.replaceFirst("^cmdstat_evalsha:calls=(\\d+),.*", "$1"));
                }
            }
        }
        return 0;
    }
}
