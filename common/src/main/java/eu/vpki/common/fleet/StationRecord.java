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

/**
 * A registered ITS station, as the Operator registered it and the EA checks it.
 *
 * @param operatorId     the operator whose fleet it belongs to
 * @param canonicalId    the canonical identifier; its US-ASCII bytes are the {@code itsId} of an initial enrolment
 * @param canonicalKey   the canonical public key (nistP256, brainpoolP256r1 or brainpoolP384r1)
 * @param permissions    application permissions the operator allows (see {@link Permissions})
 * @param maxEcValidity  longest EC validity the EA may issue (whole hours)
 * @param region         where its certificates may be valid; null: wherever the EA is
 * @param status         life-cycle status
 * @param version        the record's version ({@link VersionClock}); 0 before it is stored
 */
public record StationRecord(String operatorId, String canonicalId, EtsiPublicKey canonicalKey, List<PsidSsp> permissions,
                            Duration maxEcValidity, GeographicRegion region, StationStatus status, long version) {
    private static final HexFormat HEX = HexFormat.of();

    public StationRecord {
        Objects.requireNonNull(operatorId, "operatorId");
        Objects.requireNonNull(canonicalId, "canonicalId");
        Objects.requireNonNull(canonicalKey, "canonicalKey");
        permissions = List.copyOf(permissions);
        Objects.requireNonNull(maxEcValidity, "maxEcValidity");
        Objects.requireNonNull(status, "status");
    }

    /** The {@code itsId} bytes a station sends in its initial enrolment. */
    public byte[] itsId() {
        return canonicalId.getBytes(StandardCharsets.US_ASCII);
    }

    public StationRecord withStatus(StationStatus next, long newVersion) {
        return new StationRecord(operatorId, canonicalId, canonicalKey, permissions, maxEcValidity, region, next, newVersion);
    }

    public StationRecord withPermissions(List<PsidSsp> next, long newVersion) {
        return new StationRecord(operatorId, canonicalId, canonicalKey, next, maxEcValidity, region, status, newVersion);
    }

    public StationRecord withVersion(long newVersion) {
        return new StationRecord(operatorId, canonicalId, canonicalKey, permissions, maxEcValidity, region, status, newVersion);
    }

    /** The fields stored in Redis (without the version, which the replication library keeps). */
    public Map<String, String> fields() {
        return Map.of(
                "operator", operatorId,
                "id", canonicalId,
                "curve", canonicalKey.curve().name(),
                "key", HEX.formatHex(canonicalKey.compressed()),
                "permissions", Permissions.encode(permissions),
                "maxEcValidity", Long.toString(maxEcValidity.toSeconds()),
                "region", Regions.encode(region),
                "status", status.name());
    }

    /** Reads a stored record back, the canonical key through {@code decoding}. */
    public static StationRecord from(StoredRecord stored, RecordDecoding decoding) {
        Map<String, String> f = stored.fields();
        return new StationRecord(f.get("operator"), f.get("id"), decoding.key(f.get("curve"), f.get("key")),
                Permissions.decode(f.get("permissions")), Duration.ofSeconds(Long.parseLong(f.get("maxEcValidity"))),
                Regions.decode(f.get("region")), StationStatus.valueOf(f.get("status")), stored.version());
    }
}
