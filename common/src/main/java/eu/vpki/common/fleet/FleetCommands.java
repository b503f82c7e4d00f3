package eu.vpki.common.fleet;

import eu.vpki.common.replication.Operation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The replicated commands that change the fleet state, as lists of {@link Operation}s whose
 * versions the caller fixed (with a {@link VersionClock}) before submitting. Every operation is a
 * {@code PutIfNewer} or a {@code SetAdd}: under FIFO delivery any interleaving converges.
 *
 * <p>A station's status and its permissions are separate registers ({@link StationRecord}): a status
 * change writes the station record, a permission change writes the permissions register, so two
 * changes of one station made concurrently on different replicas (both sides of a partition in
 * ASYNC) both survive, each register keeping its own latest write.
 *
 * <p>Final states are written as terminal puts: a REVOKED station and a SUPERSEDED EC. Whatever
 * write races with them (a suspension made on another replica from the record as it was, even with a
 * higher version), every replica keeps the final state; a permission change racing with a revocation
 * lands in the permissions register of a revoked station, which the EA refuses whatever its permissions.
 */
public final class FleetCommands {
    private FleetCommands() {
    }

    /** One command for a whole batch: either all stations of the batch are applied or none. */
    public static List<Operation> register(String operatorId, List<StationRecord> stations) {
        List<Operation> ops = new ArrayList<>(stations.size() * 2);
        for (StationRecord s : stations) {
            if (!s.operatorId().equals(operatorId)) {
                throw new IllegalArgumentException("station " + s.canonicalId() + " belongs to " + s.operatorId());
            }
            ops.add(new Operation.PutIfNewer(FleetKeys.station(s.canonicalId()), s.version(), s.fields()));
            ops.add(new Operation.SetAdd(FleetKeys.operator(operatorId), s.canonicalId()));
        }
        return ops;
    }

    /**
     * A station whose status changed ({@link StationRecord#withStatus}), with a version above the station
     * record's version read; REVOKED is terminal. Writes the station record only.
     */
    public static List<Operation> changeStatus(StationRecord station) {
        return List.of(new Operation.PutIfNewer(FleetKeys.station(station.canonicalId()), station.version(), station.fields(),
                station.status() == StationStatus.REVOKED));
    }

    /**
     * A station whose permissions changed ({@link StationRecord#withPermissions}), with a permissions
     * version above the one read. Writes the permissions register only.
     */
    public static List<Operation> changePermissions(StationRecord station) {
        if (station.permissionsVersion() <= 0) {
            throw new IllegalArgumentException("a permission change needs a permissions version, got " + station.permissionsVersion());
        }
        return List.of(new Operation.PutIfNewer(FleetKeys.stationPermissions(station.canonicalId()), station.permissionsVersion(),
                station.permissionsFields()));
    }

    /**
     * An issued EC: its record, the station's pointer to its latest EC, and the previous EC marked
     * superseded (when there is one).
     *
     * <p>The pointer is a {@link Operation.PutPointerIfNewer}: two enrolments of one station accepted concurrently by
     * two replicas (neither having seen the other's EC) both read the same pointer and both write it; whatever the
     * order in which a replica applies them, the pointer ends on the higher {@code (version, origin)} and the EC the
     * other one names is SUPERSEDED (terminal, its record otherwise as issued), so every replica keeps exactly one
     * ACTIVE EC per station. The EC record comes before its pointer in the command, as that operation requires.
     */
    public static List<Operation> enrolled(EcRecord issued, Optional<EcRecord> superseded) {
        if (issued.status() != EcRecord.Status.ACTIVE) {
            throw new IllegalArgumentException("an issued EC is ACTIVE, got " + issued.status());
        }
        List<Operation> ops = new ArrayList<>(3);
        ops.add(new Operation.PutIfNewer(FleetKeys.ec(issued.id()), issued.version(), issued.fields()));
        ops.add(latestEcPointer(issued));
        superseded.ifPresent(old -> ops.add(new Operation.PutIfNewer(FleetKeys.ec(old.id()), old.version(), old.fields(),
                old.status() == EcRecord.Status.SUPERSEDED)));
        return ops;
    }

    /** The station's latest-EC pointer {@code {ec: <HashedId8 hex>}} naming {@code ec}, which supersedes the loser's EC. */
    static Operation.PutPointerIfNewer latestEcPointer(EcRecord ec) {
        return new Operation.PutPointerIfNewer(FleetKeys.stationEc(ec.stationId()), ec.version(), LATEST_EC_FIELD, ec.id().toHex(),
                FleetKeys.EC, EcRecord.STATUS_FIELD, EcRecord.Status.SUPERSEDED.name());
    }

    /** The field of the latest-EC pointer that holds the EC's HashedId8 (hex). */
    static final String LATEST_EC_FIELD = "ec";
}
