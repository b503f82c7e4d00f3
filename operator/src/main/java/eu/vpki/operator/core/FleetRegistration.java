package eu.vpki.operator.core;

import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.FieldError;
import eu.vpki.common.error.InvalidInputException;
import eu.vpki.common.fleet.FleetCommands;
import eu.vpki.common.fleet.FleetState;
import eu.vpki.common.fleet.StationRecord;
import eu.vpki.common.fleet.VersionClock;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Bulk registration of an operator's stations. The whole batch is validated first (every invalid
 * field is reported); only then is it written, as ONE replicated command, so a rejected batch
 * applies nothing and an accepted one applies atomically on every replica.
 *
 * <p>An id already registered (by this or another operator) is refused: canonical ids are global,
 * since the EA only sees the itsId. Two batches racing for the same new id on different replicas
 * both pass the check; the replicated versions then pick one winner deterministically on every
 * replica (documented in {@code docs/operator.md}).
 */
public final class FleetRegistration {

    private final FleetState fleet;
    private final ReadYourWrites writes;
    private final VersionClock versions;
    private final OperatorSettings settings;
    private final AuditLog audit;

    public FleetRegistration(FleetState fleet, ReadYourWrites writes, VersionClock versions, OperatorSettings settings, AuditLog audit) {
        this.audit = audit;
        this.fleet = fleet;
        this.writes = writes;
        this.versions = versions;
        this.settings = settings;
    }

    public Inputs.WriteResult register(String operatorId, Inputs.Batch batch) {
        List<Inputs.Station> stations = batch == null || batch.stations() == null ? List.of() : batch.stations();
        if (stations.isEmpty()) {
            throw InvalidInputException.of("stations", ErrorCode.INVALID_ARGUMENT, "at least one station");
        }
        if (stations.size() > settings.maxBatch()) {
            throw InvalidInputException.of("stations", ErrorCode.OVERSIZE_INPUT,
                    stations.size() + " stations, at most " + settings.maxBatch() + " per batch");
        }
        List<FieldError> errors = new ArrayList<>();
        List<StationRecord> records = new ArrayList<>(stations.size());
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < stations.size(); i++) {
            String path = "stations[" + i + "]";
            StationRecord r = StationInputs.toRecord(operatorId, stations.get(i), path, errors);
            if (r == null) {
                continue;
            }
            if (!ids.add(r.canonicalId())) {
                errors.add(new FieldError(path + ".canonicalId", ErrorCode.DUPLICATE_ID, r.canonicalId() + " appears twice in the batch"));
            } else if (fleet.station(r.canonicalId()).isPresent()) {
                errors.add(new FieldError(path + ".canonicalId", ErrorCode.DUPLICATE_ID, r.canonicalId() + " is already registered"));
            }
            records.add(r);
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        List<StationRecord> versioned = records.stream().map(r -> r.withVersion(versions.next())).toList();
        String token = writes.write(FleetCommands.register(operatorId, versioned));
        List<String> written = versioned.stream().map(StationRecord::canonicalId).toList();
        audit.event("stations-registered", "operator", operatorId, "count", Integer.toString(written.size()), "command", token);
        return new Inputs.WriteResult(token, written);
    }
}
