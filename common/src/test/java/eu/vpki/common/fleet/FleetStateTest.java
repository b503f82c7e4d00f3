package eu.vpki.common.fleet;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.replication.Command;
import eu.vpki.common.replication.CommandId;
import eu.vpki.common.replication.RedisStateMachine;
import eu.vpki.common.replication.ReplicaStatus;
import eu.vpki.common.testing.RedisFixtureExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.JedisPool;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reads of the fleet state fail closed: only a serving replica answers from its Redis. */
class FleetStateTest {

    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();

    private final AtomicReference<ReplicaStatus> status = new AtomicReference<>(status(ReplicaStatus.State.SERVING));
    private JedisPool pool;
    private FleetState fleet;

    private static ReplicaStatus status(ReplicaStatus.State state) {
        return new ReplicaStatus(state, "ea-1", "ea-1~1", 3, 3, 0, 0, "test: " + state);
    }

    @BeforeEach
    void registerAStation() {
        pool = REDIS.fixture().newPool();
        fleet = new FleetState(pool, status::get);
        StationRecord station = new StationRecord("op-1", "VIN-1", EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM).publicKey(),
                List.of(), Duration.ofHours(24), null, StationStatus.ACTIVE, 5);
        new RedisStateMachine(pool, FleetKeys.KEYSPACE).apply(List.of(new Command(new CommandId("op-1", 1), 0,
                FleetCommands.register("op-1", List.of(station)))));
    }

    @AfterEach
    void close() {
        pool.close();
    }

    @Test
    void servingReplica_answersFromItsRedis() {
        assertThat(fleet.station("VIN-1")).isPresent();
        assertThat(fleet.fleet("op-1")).containsExactly("VIN-1");
        assertThat(fleet.stationWithLatestEc("VIN-1").station()).isPresent();
    }

    @ParameterizedTest
    @EnumSource(value = ReplicaStatus.State.class, names = "SERVING", mode = EnumSource.Mode.EXCLUDE)
    void replicaOutOfService_refusesEveryRead(ReplicaStatus.State state) {
        status.set(status(state));

        for (Runnable read : List.<Runnable>of(() -> fleet.station("VIN-1"), () -> fleet.fleet("op-1"),
                () -> fleet.stationWithLatestEc("VIN-1"), () -> fleet.latestEc("VIN-1"))) {
            assertThatThrownBy(read::run).isInstanceOfSatisfying(PkiException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.REPLICATION_UNAVAILABLE);
                assertThat(e.getMessage()).contains(state.name());
            });
        }
    }
}
