package eu.vpki.faults;

import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.fleet.StationRecord;
import eu.vpki.common.replication.StoredRecord;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The history's writes arranged for the checks: every operation by id and per station in
 * invocation order, and the values written and read (status and permissions) in a comparable form.
 * Stored records are read through the replication library's {@link StoredRecord} and the fleet's
 * {@link FleetKeys}, so that the checks follow the keyspace if it changes.
 */
final class Writes {
    /** A station's status and permissions (each permission in its encoded form, as a set). */
    record StationValue(String status, Set<String> permissions) {
        static StationValue of(String status, String permissions) {
            return new StationValue(status, permissionItems(permissions));
        }

        @Override
        public String toString() {
            return status + " " + String.join(",", permissions);
        }
    }

    private final Map<Long, Op> byId = new HashMap<>();
    private final Map<String, List<Op>> byStation = new HashMap<>();

    Writes(List<Op> ops) {
        for (Op op : ops) {
            byId.put(op.id(), op);
            byStation.computeIfAbsent(op.station(), s -> new ArrayList<>()).add(op);
        }
        byStation.values().forEach(list -> list.sort(Comparator.comparingLong(Op::invokedMs).thenComparingLong(Op::id)));
    }

    Optional<Op> op(long id) {
        return Optional.ofNullable(byId.get(id));
    }

    Map<String, List<Op>> byStation() {
        return byStation;
    }

    List<Op> of(String station) {
        return byStation.getOrDefault(station, List.of());
    }

    /** What an Operator write (or a read) says the station is. */
    static StationValue value(Op op) {
        return StationValue.of(op.detail("status"), op.detail("permissions"));
    }

    /**
     * The live station's value on a replica (its station record's status, and its permissions as the
     * services read them: {@link StationRecord#encodedPermissions}), empty if it holds no station record
     * (or a tombstone).
     */
    static Optional<StationValue> stationValue(ReplicaState state, String station) {
        Optional<StoredRecord> permissions = record(state, FleetKeys.stationPermissions(station));
        return record(state, FleetKeys.station(station))
                .map(r -> StationValue.of(r.fields().get("status"), StationRecord.encodedPermissions(r, permissions)));
    }

    /** The live record at {@code key} on a replica. */
    static Optional<StoredRecord> record(ReplicaState state, String key) {
        return StoredRecord.from(state.hash(key)).filter(r -> !r.deleted());
    }

    static Set<String> permissionItems(String encoded) {
        if (encoded == null || encoded.isEmpty()) {
            return Set.of();
        }
        return new TreeSet<>(Arrays.asList(encoded.split(",")));
    }

    /** Whether two operations' intervals [invoked, completed] overlap. */
    static boolean concurrent(Op a, Op b) {
        return a.invokedMs() <= b.completedMs() && b.invokedMs() <= a.completedMs();
    }
}
