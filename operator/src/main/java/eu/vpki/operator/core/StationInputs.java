package eu.vpki.operator.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.FieldError;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.ts103097.GeographicRegion;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.fleet.Permissions;
import eu.vpki.common.fleet.StationRecord;
import eu.vpki.common.fleet.StationStatus;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Turns API input into fleet records, collecting every invalid field with its JSON path. Each
 * check is a small method; nothing is written until all of them passed.
 */
final class StationInputs {
    static final Duration MIN_EC_VALIDITY = Duration.ofHours(1);
    static final Duration MAX_EC_VALIDITY = Duration.ofHours(65_535);
    private static final HexFormat HEX = HexFormat.of();

    private StationInputs() {
    }

    /** The record for {@code in}, or null after adding its errors (paths under {@code path}) to {@code errors}. */
    static StationRecord toRecord(String operatorId, Inputs.Station in, String path, List<FieldError> errors) {
        int before = errors.size();
        if (in == null) {
            errors.add(new FieldError(path, ErrorCode.INVALID_ARGUMENT, "station missing"));
            return null;
        }
        String id = in.canonicalId();
        if (id == null || !FleetKeys.ID.matcher(id).matches()) {
            errors.add(new FieldError(path + ".canonicalId", ErrorCode.INVALID_ARGUMENT, "must match " + FleetKeys.ID));
        }
        EtsiPublicKey key = publicKey(in.curve(), in.publicKey(), path, errors);
        List<PsidSsp> permissions = permissions(in.permissions(), path + ".permissions", errors);
        Duration maxEc = maxEcValidity(in.maxEcValidity(), path + ".maxEcValidity", errors);
        GeographicRegion region = region(in.region(), path + ".region", errors);
        if (errors.size() > before) {
            return null;
        }
        return new StationRecord(operatorId, id, key, permissions, maxEc, region, StationStatus.ACTIVE, 0);
    }

    private static EtsiPublicKey publicKey(String curveName, String hex, String path, List<FieldError> errors) {
        EtsiCurve curve;
        try {
            curve = EtsiCurve.parse(curveName);
        } catch (PkiException e) {
            errors.add(new FieldError(path + ".curve", e.code(), e.getMessage()));
            return null;
        }
        byte[] point;
        try {
            point = HEX.parseHex(hex == null ? "" : hex.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            errors.add(new FieldError(path + ".publicKey", ErrorCode.INVALID_KEY, "not hexadecimal"));
            return null;
        }
        try {
            return EtsiPublicKey.fromEncodedPoint(curve, point);
        } catch (PkiException e) {
            errors.add(new FieldError(path + ".publicKey", ErrorCode.INVALID_KEY, e.getMessage()));
            return null;
        } catch (RuntimeException e) {
            errors.add(new FieldError(path + ".publicKey", ErrorCode.INVALID_KEY, "not a point on " + curve));
            return null;
        }
    }

    static List<PsidSsp> permissions(List<Inputs.Permission> in, String path, List<FieldError> errors) {
        if (in == null) {
            errors.add(new FieldError(path, ErrorCode.INVALID_ARGUMENT, "permissions missing"));
            return List.of();
        }
        List<PsidSsp> out = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            Inputs.Permission p = in.get(i);
            String at = path + "[" + i + "]";
            if (p == null || p.psid() == null || p.psid() < 0) {
                errors.add(new FieldError(at + ".psid", ErrorCode.INVALID_ARGUMENT, "a non-negative PSID is required"));
                continue;
            }
            PsidSsp permission;
            try {
                String type = p.sspType() == null ? "none" : p.sspType().toLowerCase(Locale.ROOT);
                byte[] ssp = p.ssp() == null ? new byte[0] : HEX.parseHex(p.ssp().toLowerCase(Locale.ROOT));
                permission = switch (type) {
                    case "none" -> PsidSsp.of(p.psid());
                    case "bitmap" -> PsidSsp.bitmap(p.psid(), ssp);
                    case "opaque" -> PsidSsp.opaque(p.psid(), ssp);
                    default -> throw new IllegalArgumentException("sspType must be none, bitmap or opaque");
                };
            } catch (IllegalArgumentException e) {
                errors.add(new FieldError(at + ".ssp", ErrorCode.INVALID_ARGUMENT, e.getMessage()));
                continue;
            }
            try {
                List<PsidSsp> soFar = new ArrayList<>(out);
                soFar.add(permission);
                Permissions.requireRegistrable(soFar);
                out.add(permission);
            } catch (PkiException e) {
                errors.add(new FieldError(e.code() == ErrorCode.UNKNOWN_PSID ? at + ".psid" : at, e.code(), e.getMessage()));
            }
        }
        return out;
    }

    private static Duration maxEcValidity(String text, String path, List<FieldError> errors) {
        Duration d;
        try {
            d = Duration.parse(text == null ? "" : text);
        } catch (DateTimeParseException e) {
            errors.add(new FieldError(path, ErrorCode.INVALID_ARGUMENT, "an ISO-8601 duration such as P365D is required"));
            return null;
        }
        if (d.compareTo(MIN_EC_VALIDITY) < 0 || d.compareTo(MAX_EC_VALIDITY) > 0 || d.toSeconds() % 3_600 != 0 || d.getNano() != 0) {
            errors.add(new FieldError(path, ErrorCode.VALIDITY_NOT_ALLOWED, "whole hours from PT1H to PT65535H"));
            return null;
        }
        return d;
    }

    private static GeographicRegion region(Inputs.Region in, String path, List<FieldError> errors) {
        if (in == null || (in.countries() == null && in.circle() == null)) {
            return null;
        }
        if (in.countries() != null && in.circle() != null) {
            errors.add(new FieldError(path, ErrorCode.INVALID_ARGUMENT, "give countries or circle, not both"));
            return null;
        }
        if (in.countries() != null) {
            if (in.countries().isEmpty() || in.countries().stream().anyMatch(c -> c == null || c < 1 || c > 999)) {
                errors.add(new FieldError(path + ".countries", ErrorCode.INVALID_ARGUMENT, "UN M.49 codes 1..999"));
                return null;
            }
            return new GeographicRegion.Countries(in.countries());
        }
        Inputs.Circle c = in.circle();
        if (c.latitude() == null || Math.abs(c.latitude()) > 900_000_000L || c.longitude() == null
                || Math.abs(c.longitude()) > 1_800_000_000L || c.radiusMetres() == null || c.radiusMetres() < 1
                || c.radiusMetres() > 65_535) {
            errors.add(new FieldError(path + ".circle", ErrorCode.INVALID_ARGUMENT,
                    "latitude/longitude in 1/10 micro degrees and radiusMetres 1..65535 are required"));
            return null;
        }
        return new GeographicRegion.Circular(c.latitude(), c.longitude(), c.radiusMetres());
    }

    /** The API view of a record. */
    static Inputs.StationView view(StationRecord s, eu.vpki.common.fleet.EcRecord latest) {
        List<Inputs.Permission> permissions = s.permissions().stream().map(p -> new Inputs.Permission(p.psid(),
                p.kind().name().toLowerCase(Locale.ROOT), p.kind() == PsidSsp.SspKind.NONE ? null : HEX.formatHex(p.ssp()))).toList();
        Inputs.Region region = null;
        if (s.region() instanceof GeographicRegion.Countries c) {
            region = new Inputs.Region(c.countryCodes(), null);
        } else if (s.region() instanceof GeographicRegion.Circular c) {
            region = new Inputs.Region(null, new Inputs.Circle(c.centerLatitude(), c.centerLongitude(), c.radiusMetres()));
        }
        return new Inputs.StationView(s.canonicalId(), curveName(s.canonicalKey().curve()), HEX.formatHex(s.canonicalKey().compressed()),
                permissions, s.maxEcValidity().toString(), region, s.status().name(),
                latest == null ? null : latest.id().toHex(), latest == null ? null : latest.status().name(),
                latest == null ? null : latest.validityEnd().toString());
    }

    static String curveName(EtsiCurve curve) {
        return switch (curve) {
            case NIST_P256 -> "nistP256";
            case BRAINPOOL_P256R1 -> "brainpoolP256r1";
            case BRAINPOOL_P384R1 -> "brainpoolP384r1";
        };
    }
}
