package eu.vpki.common.fleet;

import eu.vpki.common.replication.Operation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The replicated commands that change the fleet state, as lists of {@link Operation}s whose
 * versions the caller fixed (with a {@link VersionClock}) before submitting. Every operation is a
 * {@code PutIfNewer} or a {@code SetAdd}: under FIFO delivery any interleaving converges.
 *
 * <p>Final states are written as terminal puts: a REVOKED station and a SUPERSEDED EC. Whatever
 * write races with them (a permission change or a suspension made on another replica from the record
 * as it was, even with a higher version), every replica keeps the final state.
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

    /** A changed station (permissions or status), with a version above the one read; REVOKED is terminal. */
    public static List<Operation> update(StationRecord station) {
        return List.of(new Operation.PutIfNewer(FleetKeys.station(station.canonicalId()), station.version(), station.fields(),
                station.status() == StationStatus.REVOKED));
    }

    /**
     * An issued EC: its record, the station's pointer to its latest EC, and the previous EC marked
     * superseded (when there is one).
     */
    public static List<Operation> enrolled(EcRecord issued, Optional<EcRecord> superseded) {
        List<Operation> ops = new ArrayList<>(3);
        ops.add(new Operation.PutIfNewer(FleetKeys.ec(issued.id()), issued.version(), issued.fields()));
        ops.add(new Operation.PutIfNewer(FleetKeys.stationEc(issued.stationId()), issued.version(),
                Map.of("ec", issued.id().toHex())));
        superseded.ifPresent(old -> ops.add(new Operation.PutIfNewer(FleetKeys.ec(old.id()), old.version(), old.fields(),
                old.status() == EcRecord.Status.SUPERSEDED)));
        return ops;
    }
}
