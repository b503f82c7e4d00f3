package eu.vpki.common.fleet;

import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.ts103097.GeographicRegion;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.replication.StoredRecord;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A registered ITS station, as the Operator registered it and the EA checks it.
 *
 * <p>Stored as two last-writer-wins registers that change independently and merge independently
 * (docs/replication.md, "Station records"): the station record {@code fleet:station:<id>} (the
 * registration and the status, REVOKED terminal) and, once the permissions were changed after the
 * registration, the permissions register {@code fleet:station-permissions:<id>}. A status change and
 * a permission change made concurrently (on both sides of a partition) therefore both survive, whatever
 * their versions. A record stored before the registers were separated has no permissions register:
 * the permissions in its station record are read as the register's value, so existing stores need
 * no rewrite.
 *
 * @param operatorId     the operator whose fleet it belongs to
 * @param canonicalId    the canonical identifier; its US-ASCII bytes are the {@code itsId} of an initial enrolment
 * @param canonicalKey   the canonical public key (nistP256, brainpoolP256r1 or brainpoolP384r1)
 * @param permissions    application permissions the operator allows (see {@link Permissions})
 * @param maxEcValidity  longest EC validity the EA may issue (whole hours)
 * @param region         where its certificates may be valid; null: wherever the EA is
 * @param status         life-cycle status
 * @param version        the station register's version (registration and status, {@link VersionClock}); 0 before
 *                       it is stored
 * @param permissionsVersion the permissions register's version; 0 while the permissions are the registered ones
 */
public record StationRecord(String operatorId, String canonicalId, EtsiPublicKey canonicalKey, List<PsidSsp> permissions,
                            Duration maxEcValidity, GeographicRegion region, StationStatus status, long version,
                            long permissionsVersion) {
    private static final HexFormat HEX = HexFormat.of();
    /** The field of the permissions register (and of the station record, for the registered permissions). */
    static final String PERMISSIONS_FIELD = "permissions";

    public StationRecord {
        Objects.requireNonNull(operatorId, "operatorId");
        Objects.requireNonNull(canonicalId, "canonicalId");
        Objects.requireNonNull(canonicalKey, "canonicalKey");
        permissions = List.copyOf(permissions);
        Objects.requireNonNull(maxEcValidity, "maxEcValidity");
        Objects.requireNonNull(status, "status");
    }

    /** A station whose permissions are still those it was registered with. */
    public StationRecord(String operatorId, String canonicalId, EtsiPublicKey canonicalKey, List<PsidSsp> permissions,
                         Duration maxEcValidity, GeographicRegion region, StationStatus status, long version) {
        this(operatorId, canonicalId, canonicalKey, permissions, maxEcValidity, region, status, version, 0);
    }

    /** The {@code itsId} bytes a station sends in its initial enrolment. */
    public byte[] itsId() {
        return canonicalId.getBytes(StandardCharsets.US_ASCII);
    }

    /** A status change: a new version of the station register ({@link FleetCommands#changeStatus}). */
    public StationRecord withStatus(StationStatus next, long newVersion) {
        return new StationRecord(operatorId, canonicalId, canonicalKey, permissions, maxEcValidity, region, next, newVersion,
                permissionsVersion);
    }

    /** A permission change: a new version of the permissions register ({@link FleetCommands#changePermissions}). */
    public StationRecord withPermissions(List<PsidSsp> next, long newPermissionsVersion) {
        return new StationRecord(operatorId, canonicalId, canonicalKey, next, maxEcValidity, region, status, version,
                newPermissionsVersion);
    }

    public StationRecord withVersion(long newVersion) {
        return new StationRecord(operatorId, canonicalId, canonicalKey, permissions, maxEcValidity, region, status, newVersion,
                permissionsVersion);
    }

    /**
     * The fields of the station record (without the version, which the replication library keeps);
     * {@code permissions} there is the value read while the station has no permissions register.
     */
    public Map<String, String> fields() {
        return Map.of(
                "operator", operatorId,
                "id", canonicalId,
                "curve", canonicalKey.curve().name(),
                "key", HEX.formatHex(canonicalKey.compressed()),
                PERMISSIONS_FIELD, Permissions.encode(permissions),
                "maxEcValidity", Long.toString(maxEcValidity.toSeconds()),
                "region", Regions.encode(region),
                "status", status.name());
    }

    /** The fields of the permissions register. */
    public Map<String, String> permissionsFields() {
        return Map.of(PERMISSIONS_FIELD, Permissions.encode(permissions));
    }

    /**
     * Reads a stored station back from its station record and its permissions register (empty when the
     * permissions were never changed, or the record predates the registers), the canonical key through
     * {@code decoding}.
     */
    public static StationRecord from(StoredRecord station, Optional<StoredRecord> permissions, RecordDecoding decoding) {
        Map<String, String> f = station.fields();
        Optional<StoredRecord> register = permissions.filter(r -> r.fields().containsKey(PERMISSIONS_FIELD));
        return new StationRecord(f.get("operator"), f.get("id"), decoding.key(f.get("curve"), f.get("key")),
                Permissions.decode(encodedPermissions(station, register)), Duration.ofSeconds(Long.parseLong(f.get("maxEcValidity"))),
                Regions.decode(f.get("region")), StationStatus.valueOf(f.get("status")), station.version(),
                register.map(StoredRecord::version).orElse(0L));
    }

    /**
     * The station's permissions in their stored encoding ({@link Permissions#encode}): the permissions
     * register's when it holds one, else the station record's. The one rule every reader uses (the
     * services through {@link #from}, the fault harness's checks on stored state).
     */
    public static String encodedPermissions(StoredRecord station, Optional<StoredRecord> permissions) {
        return permissions.map(r -> r.fields().get(PERMISSIONS_FIELD)).orElseGet(() -> station.fields().get(PERMISSIONS_FIELD));
    }
}
