package eu.vpki.operator.core;

import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.FieldError;
import eu.vpki.common.error.InvalidInputException;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.fleet.FleetCommands;
import eu.vpki.common.fleet.FleetState;
import eu.vpki.common.fleet.StationRecord;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.common.fleet.VersionClock;
import eu.vpki.common.replication.Operation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reading and changing single stations of the caller's own fleet. A station of another operator
 * is reported as not found (its existence is not revealed). A status change writes the station
 * record, a permission change the permissions register (separate registers: a concurrent change of
 * the other one is kept, {@link FleetCommands}), each with a version above the one read, so it wins
 * over what it read on every replica.
 */
public final class StationAdministration {

    private final FleetState fleet;
    private final ReadYourWrites rw;
    private final VersionClock versions;
    private final AuditLog audit;

    public StationAdministration(FleetState fleet, ReadYourWrites rw, VersionClock versions, AuditLog audit) {
        this.fleet = fleet;
        this.rw = rw;
        this.versions = versions;
        this.audit = audit;
    }

    /** One station; {@code version} (may be null) is a token the read must reflect. */
    public Inputs.StationView read(String operatorId, String canonicalId, String version) {
        rw.awaitVersion(version);
        FleetState.StationAndLatestEc read = fleet.stationWithLatestEc(canonicalId);
        StationRecord s = ownedBy(operatorId, canonicalId, read.station());
        return StationInputs.view(s, read.latestEc().orElse(null));
    }

    /** Ids per page when the caller names no limit. */
    public static final int DEFAULT_PAGE = 1_000;
    /** The most ids a caller may ask for in one page: one call stays bounded whatever the fleet's size. */
    public static final int MAX_PAGE = 10_000;

    /**
     * One page of the caller's fleet ({@link FleetState#fleetPage}): from {@code cursor} (null or {@code "0"}: the
     * first page), about {@code limit} ids (null: {@link #DEFAULT_PAGE}; at most {@link #MAX_PAGE}).
     */
    public Inputs.FleetView list(String operatorId, String version, String cursor, Integer limit) {
        int size = limit == null ? DEFAULT_PAGE : limit;
        if (size < 1 || size > MAX_PAGE) {
            throw InvalidInputException.of("limit", ErrorCode.INVALID_ARGUMENT, "between 1 and " + MAX_PAGE + ", got " + size);
        }
        String from = cursor == null || cursor.isEmpty() ? "0" : cursor;
        if (from.length() > 20 || !from.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw InvalidInputException.of("cursor", ErrorCode.INVALID_ARGUMENT, "the nextCursor of a previous page, or 0");
        }
        rw.awaitVersion(version);
        FleetState.FleetPage page = fleet.fleetPage(operatorId, from, size);
        return new Inputs.FleetView(operatorId, page.canonicalIds(), page.nextCursor());
    }

    public Inputs.WriteResult changePermissions(String operatorId, String canonicalId, Inputs.PermissionChange change) {
        List<FieldError> errors = new ArrayList<>();
        List<PsidSsp> permissions = StationInputs.permissions(change == null ? null : change.permissions(), "permissions", errors);
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        StationRecord s = own(operatorId, canonicalId);
        if (s.status() == StationStatus.REVOKED) {
            throw new PkiException(ErrorCode.INVALID_STATE_TRANSITION, "station " + canonicalId + " is revoked");
        }
        StationRecord changed = s.withPermissions(permissions, versions.nextAbove(s.permissionsVersion()));
        return write(changed, FleetCommands.changePermissions(changed), "permissions", permissions.toString());
    }

    public Inputs.WriteResult changeStatus(String operatorId, String canonicalId, StationStatus next) {
        StationRecord s = own(operatorId, canonicalId);
        if (!s.status().mayBecome(next)) {
            throw new PkiException(ErrorCode.INVALID_STATE_TRANSITION, "station " + canonicalId + " is " + s.status()
                    + " and cannot become " + next);
        }
        StationRecord changed = s.withStatus(next, versions.nextAbove(s.version()));
        return write(changed, FleetCommands.changeStatus(changed), "status", next.name());
    }

    private Inputs.WriteResult write(StationRecord changed, List<Operation> command, String field, String value) {
        String token = rw.write(command);
        audit.event("station-changed", "operator", changed.operatorId(), "station", changed.canonicalId(), field, value, "command", token);
        return new Inputs.WriteResult(token, List.of(changed.canonicalId()));
    }

    private StationRecord own(String operatorId, String canonicalId) {
        return ownedBy(operatorId, canonicalId, fleet.station(canonicalId));
    }

    /** Another operator's station is answered as if it did not exist: a fleet is private. */
    private static StationRecord ownedBy(String operatorId, String canonicalId, Optional<StationRecord> station) {
        return station.filter(s -> s.operatorId().equals(operatorId))
                .orElseThrow(() -> new PkiException(ErrorCode.NOT_FOUND, "no station " + canonicalId + " in this operator's fleet"));
    }
}
