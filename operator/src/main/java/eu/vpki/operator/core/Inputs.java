package eu.vpki.operator.core;

import java.util.List;

/** Input and output records of the Operator API (JSON is bound to them by the shell). */
public final class Inputs {
    private Inputs() {
    }

    /** A permission: PSID, SSP type {@code none|bitmap|opaque} (default none) and the SSP in hex. */
    public record Permission(Long psid, String sspType, String ssp) {
    }

    /** A circular region: centre in 1/10 micro degrees, radius in metres. */
    public record Circle(Long latitude, Long longitude, Integer radiusMetres) {
    }

    /** A region: either UN M.49 country codes or a circle (or neither: no restriction). */
    public record Region(List<Integer> countries, Circle circle) {
    }

    /**
     * A station to register.
     *
     * @param canonicalId   {@code [A-Za-z0-9._:-]{1,64}}; its ASCII bytes are the itsId of the initial enrolment
     * @param curve         {@code nistP256}, {@code brainpoolP256r1} or {@code brainpoolP384r1}
     * @param publicKey     the canonical public key, SEC1 point in hex (compressed or uncompressed)
     * @param permissions   the application permissions its ATs may carry
     * @param maxEcValidity ISO-8601 duration in whole hours, 1 hour to 65535 hours (e.g. {@code P365D})
     * @param region        optional region
     */
    public record Station(String canonicalId, String curve, String publicKey, List<Permission> permissions,
                          String maxEcValidity, Region region) {
    }

    /** A registration batch. */
    public record Batch(List<Station> stations) {
    }

    /** New permissions of one station. */
    public record PermissionChange(List<Permission> permissions) {
    }

    /** What a write answers: the read-your-writes version token ({@code seq@origin}) and the ids written. */
    public record WriteResult(String version, List<String> canonicalIds) {
    }

    /** What a read answers. */
    public record StationView(String canonicalId, String curve, String publicKey, List<Permission> permissions,
                              String maxEcValidity, Region region, String status, String latestEc,
                              String latestEcStatus, String latestEcValidUntil) {
    }

    /**
     * One page of an operator's fleet ({@code GET /stations?cursor=&limit=}).
     *
     * @param nextCursor what to pass as {@code cursor} for the next page; null after the last page
     */
    public record FleetView(String operatorId, List<String> canonicalIds, String nextCursor) {
    }
}
