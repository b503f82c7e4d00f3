package eu.vpki.common.fleet;

import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.replication.StoredRecord;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;

/**
 * An enrolment credential the EA issued: the certificate (so any EA replica can verify signatures
 * made with it), the station it belongs to, and its status.
 *
 * @param certificate the EC as issued
 * @param stationId   the station's canonical id
 * @param status      ACTIVE, or SUPERSEDED once the station enrolled again
 * @param version     the record's version ({@link VersionClock}); 0 before it is stored
 * @param requestTime the generation time of the enrolment request the EC answered, {@code null} if
 *                    unknown (records stored before it was kept); every replica refuses a later request of
 *                    the station that is not newer than this (docs/design-ea-replay.md)
 */
public record EcRecord(EtsiCertificate certificate, String stationId, Status status, long version, Instant requestTime) {
    private static final HexFormat HEX = HexFormat.of();

    public enum Status { ACTIVE, SUPERSEDED }

    /** The field of the stored record that holds its {@link Status}. */
    public static final String STATUS_FIELD = "status";

    public EcRecord {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(stationId, "stationId");
        Objects.requireNonNull(status, "status");
    }

    /** A record whose request time is not known. */
    public EcRecord(EtsiCertificate certificate, String stationId, Status status, long version) {
        this(certificate, stationId, status, version, null);
    }

    public HashedId8 id() {
        return certificate.hashedId8();
    }

    public Instant validityEnd() {
        return certificate.validity().end();
    }

    /** Whether the EC may be used at {@code now}: ACTIVE and inside its validity period. */
    public boolean usableAt(Instant now) {
        return status == Status.ACTIVE && certificate.validAt(now);
    }

    public EcRecord superseded(long newVersion) {
        return new EcRecord(certificate, stationId, Status.SUPERSEDED, newVersion, requestTime);
    }

    public Map<String, String> fields() {
        Map<String, String> f = new HashMap<>(Map.of("station", stationId, "certificate", HEX.formatHex(certificate.encoded()),
                "validityEnd", Long.toString(validityEnd().getEpochSecond()), STATUS_FIELD, status.name()));
        if (requestTime != null) {
            f.put("requestTime", Long.toString(ChronoUnit.MICROS.between(Instant.EPOCH, requestTime)));
        }
        return Map.copyOf(f);
    }

    /** Reads a stored record back, the certificate through {@code decoding}. */
    public static EcRecord from(StoredRecord stored, RecordDecoding decoding) {
        Map<String, String> f = stored.fields();
        String requestTime = f.get("requestTime");
        return new EcRecord(decoding.certificate(f.get("certificate")), f.get("station"),
                Status.valueOf(f.get(STATUS_FIELD)), stored.version(),
                requestTime == null ? null : Instant.EPOCH.plus(Long.parseLong(requestTime), ChronoUnit.MICROS));
    }
}
