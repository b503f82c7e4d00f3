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
import eu.vpki.common.testing.RedisFixtureExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.JedisPool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A station's status and permissions are separate registers, merged each on its own: two changes of
 * one station made from the same read on two replicas (both sides of a partition in ASYNC) both
 * survive, in whichever order a replica applies them. Real Redis, the real apply script: two
 * redis-servers stand for two replicas that received the commands in opposite orders.
 */
class StationRegistersTest {

    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension(2);

    private static final PsidSsp CAM = PsidSsp.of(Psids.CAM);
    private static final PsidSsp DENM = PsidSsp.of(Psids.DENM);
    private static final ReplicaStatus SERVING = new ReplicaStatus(ReplicaStatus.State.SERVING, "ea-1", "ea-1~1", 3, 3, 0, 0, "test");

    private static StationRecord registered(String id, long version) {
        return new StationRecord("op-1", id, EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM).publicKey(),
                List.of(CAM), Duration.ofHours(24), null, StationStatus.ACTIVE, version);
    }

    private static Command command(String origin, long seq, List<Operation> operations) {
        return new Command(new CommandId(origin, seq), 0, operations);
    }

    /** Applies {@code commands} in this order to replica {@code index}'s Redis (one command at a time, as delivered). */
    private static StationRecord applyAndRead(int index, String id, List<Command> commands) {
        try (JedisPool pool = REDIS.fixtures().get(index).newPool()) {
            RedisStateMachine machine = new RedisStateMachine(pool, FleetKeys.KEYSPACE);
            for (Command c : commands) {
                machine.apply(List.of(c));
            }
            return new FleetState(pool, () -> SERVING).station(id).orElseThrow();
        }
    }

    private static List<Command> reversed(List<Command> commands) {
        List<Command> out = new ArrayList<>(commands);
        java.util.Collections.reverse(out);
        return out;
    }

    /**
     * The TOTAL + ASYNC loss of the #21 matrix: on the minority side a suspension, on the majority side
     * a permission change read from the record without it and written later (a higher version). With the
     * whole record one last-writer-wins register, the permission change replaced the suspension.
     */
    @Test
    void statusChangeAndPermissionChange_fromTheSameRead_bothSurvive_inEitherOrder() {
        StationRecord read = registered("VIN-1", 5);
        Command registration = command("op-a", 1, FleetCommands.register("op-1", List.of(read)));
        Command suspended = command("op-a", 2, FleetCommands.changeStatus(read.withStatus(StationStatus.SUSPENDED, 10)));
        Command permissions = command("op-b", 1, FleetCommands.changePermissions(read.withPermissions(List.of(DENM), 20)));

        StationRecord one = applyAndRead(0, "VIN-1", List.of(registration, suspended, permissions));
        StationRecord other = applyAndRead(1, "VIN-1", List.of(permissions, registration, suspended));

        for (StationRecord merged : List.of(one, other)) {
            assertThat(merged.status()).as("the suspension (lower version) survives the permission change")
                    .isEqualTo(StationStatus.SUSPENDED);
            assertThat(merged.permissions()).as("the permission change survives the suspension").containsExactly(DENM);
            assertThat(merged.version()).isEqualTo(10);
            assertThat(merged.permissionsVersion()).isEqualTo(20);
        }
        assertThat(other).isEqualTo(one);
    }

    @Test
    void laterStatusChange_keepsAnEarlierPermissionChange() {
        StationRecord read = registered("VIN-2", 5);
        Command registration = command("op-a", 1, FleetCommands.register("op-1", List.of(read)));
        Command permissions = command("op-a", 2, FleetCommands.changePermissions(read.withPermissions(List.of(DENM), 8)));
        Command suspended = command("op-b", 1, FleetCommands.changeStatus(read.withStatus(StationStatus.SUSPENDED, 30)));

        StationRecord merged = applyAndRead(0, "VIN-2", List.of(registration, permissions, suspended));
        assertThat(merged.status()).isEqualTo(StationStatus.SUSPENDED);
        assertThat(merged.permissions()).containsExactly(DENM);
    }

    @Test
    void revocation_staysFinal_whateverPermissionChangeRacesWithIt() {
        StationRecord read = registered("VIN-3", 5);
        Command registration = command("op-a", 1, FleetCommands.register("op-1", List.of(read)));
        Command revoked = command("op-a", 2, FleetCommands.changeStatus(read.withStatus(StationStatus.REVOKED, 10)));
        Command permissions = command("op-b", 1, FleetCommands.changePermissions(read.withPermissions(List.of(DENM), 20)));
        Command reactivated = command("op-b", 2, FleetCommands.changeStatus(read.withStatus(StationStatus.ACTIVE, 40)));

        List<Command> order = List.of(registration, revoked, permissions, reactivated);
        assertThat(applyAndRead(0, "VIN-3", order).status()).isEqualTo(StationStatus.REVOKED);
        assertThat(applyAndRead(1, "VIN-3", List.of(permissions, reactivated, registration, revoked)).status())
                .isEqualTo(StationStatus.REVOKED);
    }

    @Test
    void applyingTwice_changesNothing() {
        StationRecord read = registered("VIN-4", 5);
        List<Command> commands = List.of(command("op-a", 1, FleetCommands.register("op-1", List.of(read))),
                command("op-a", 2, FleetCommands.changeStatus(read.withStatus(StationStatus.SUSPENDED, 10))),
                command("op-b", 1, FleetCommands.changePermissions(read.withPermissions(List.of(DENM), 20))));
        StationRecord once = applyAndRead(0, "VIN-4", commands);
        assertThat(applyAndRead(0, "VIN-4", reversed(commands))).isEqualTo(once);
    }

    /**
     * A record stored before the registers were separated (the whole record, permissions changed by a
     * whole-record put, no permissions register) reads as it was, and merges with changes of the new
     * kind: the stored record needs no rewrite.
     */
    @Test
    void recordStoredBeforeTheRegisters_readsAsItWas_andMergesWithNewChanges() {
        StationRecord original = registered("VIN-5", 5);
        Command registration = command("op-a", 1, FleetCommands.register("op-1", List.of(original)));
        // what the old FleetCommands.update wrote for a permission change: the whole station record
        StationRecord oldChange = original.withPermissions(List.of(CAM, DENM), 0).withVersion(7);
        Command oldPermissionChange = command("op-a", 2, List.of(new Operation.PutIfNewer(FleetKeys.station("VIN-5"),
                oldChange.version(), oldChange.fields())));
        StationRecord legacy = applyAndRead(0, "VIN-5", List.of(registration, oldPermissionChange));
        assertThat(legacy.permissions()).containsExactly(CAM, DENM);
        assertThat(legacy.version()).isEqualTo(7);
        assertThat(legacy.permissionsVersion()).isZero();

        Command suspended = command("op-b", 1, FleetCommands.changeStatus(legacy.withStatus(StationStatus.SUSPENDED, 50)));
        Command permissions = command("op-c", 1, FleetCommands.changePermissions(legacy.withPermissions(List.of(DENM), 60)));
        StationRecord merged = applyAndRead(0, "VIN-5", List.of(permissions, suspended));
        assertThat(merged.status()).isEqualTo(StationStatus.SUSPENDED);
        assertThat(merged.permissions()).containsExactly(DENM);
        try (JedisPool pool = REDIS.fixtures().get(0).newPool(); var jedis = pool.getResource()) {
            Map<String, String> stationRecord = jedis.hgetAll(FleetKeys.station("VIN-5"));
            assertThat(stationRecord).containsEntry("status", "SUSPENDED");
        }
    }
}
