package eu.vpki.aa.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts102941.SubjectAttributes;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.GeographicRegion;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Validity;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What the AA grants in an AT, given what the station requested and the EA confirmed:
 * <ul>
 *   <li>permissions: each confirmed permission that was also requested (same PSID; a bitmap SSP is
 *       narrowed to the bits both set), that this policy allows ({@code psids}, empty = any) and that
 *       the AA certificate may issue; never more than requested, never more than the EC allows. A
 *       request naming no permissions asks for what the station may have: the EA confirms the
 *       station's permissions then, and those are taken (still within policy and the AA's);</li>
 *   <li>validity: from {@code backdate} before now (never before the AA certificate's start; or the
 *       requested start, if later, at most one policy validity ahead) for {@code validity}, cut to
 *       the requested, the confirmed and the AA certificate's end: never longer than {@code validity}
 *       in total ({@link Validity#backdatedStart} says why the start is backdated);</li>
 *   <li>region: the confirmed region, else the requested one, else {@code defaultRegion}, else the
 *       AA certificate's.</li>
 * </ul>
 */
public record AtPolicy(Duration validity, Duration backdate, GeographicRegion defaultRegion, Set<Long> psids) {
    /** Default backdate: the request window (docs/architecture.md, "Validity start"). */
    public static final Duration DEFAULT_BACKDATE = Duration.ofMinutes(5);
    /** One week from five minutes ago, no region of its own, every PSID the AA may issue. */
    public static final AtPolicy DEFAULT = new AtPolicy(Duration.ofDays(7), DEFAULT_BACKDATE, null, Set.of());

    public AtPolicy {
        if (validity.isNegative() || validity.isZero() || validity.getSeconds() > 65_535L * 3_600) {
            throw new IllegalArgumentException("AT validity must be positive and at most 65535 hours: " + validity);
        }
        if (backdate.isNegative() || backdate.compareTo(validity) >= 0) {
            throw new IllegalArgumentException("AT backdate must be at least 0 and shorter than the AT validity: " + backdate);
        }
        psids = Set.copyOf(psids);
    }

    /** What goes into one AT. */
    public record Grant(List<PsidSsp> permissions, Validity validity, GeographicRegion region) {
    }

    /**
     * @throws PkiException {@link ErrorCode#PERMISSIONS_NOT_ALLOWED} when nothing can be granted,
     *                      {@link ErrorCode#VALIDITY_NOT_ALLOWED} when no validity is left
     */
    public Grant grant(SubjectAttributes requested, SubjectAttributes confirmed, EtsiCertificate aa, Instant now) {
        return new Grant(permissions(requested.appPermissions(), confirmed.appPermissions(), aa), validity(requested, confirmed, aa, now),
                firstNonNull(confirmed.region(), requested.region(), defaultRegion, aa.region().orElse(null)));
    }

    List<PsidSsp> permissions(List<PsidSsp> requested, List<PsidSsp> confirmed, EtsiCertificate aa) {
        List<PsidSsp> granted = new ArrayList<>();
        for (PsidSsp c : confirmed) {
            for (PsidSsp r : requested.isEmpty() ? List.of(c) : requested) {
                PsidSsp g = intersect(r, c);
                if (g != null && (psids.isEmpty() || psids.contains(g.psid()))
                        && aa.certIssuePermissions().stream().anyMatch(p -> p.eeApp() && p.covers(g))
                        && granted.stream().noneMatch(x -> x.psid() == g.psid())) {
                    granted.add(g);
                }
            }
        }
        if (granted.isEmpty()) {
            throw new PkiException(ErrorCode.PERMISSIONS_NOT_ALLOWED, "no confirmed permission is both requested and allowed by the AA");
        }
        return List.copyOf(granted);
    }

    /** The largest permission both allow: equal ones, or a bitmap SSP with the bits both set (same version byte). */
    static PsidSsp intersect(PsidSsp requested, PsidSsp confirmed) {
        if (requested.psid() != confirmed.psid()) {
            return null;
        }
        if (requested.equals(confirmed)) {
            return requested;
        }
        if (requested.kind() == PsidSsp.SspKind.BITMAP && confirmed.kind() == PsidSsp.SspKind.BITMAP) {
            byte[] a = requested.ssp();
            byte[] b = confirmed.ssp();
            if (a.length != b.length || a[0] != b[0]) {
                return null;
            }
            byte[] and = new byte[a.length];
            and[0] = a[0];
            for (int i = 1; i < a.length; i++) {
                and[i] = (byte) (a[i] & b[i]);
            }
            return PsidSsp.bitmap(requested.psid(), and);
        }
        return null;
    }

    Validity validity(SubjectAttributes requested, SubjectAttributes confirmed, EtsiCertificate aa, Instant now) {
        Instant start = Validity.backdatedStart(now, backdate, aa.validity().start());
        Instant end = start.plus(validity);
        if (requested.validity() != null) {
            Validity r = requested.validity();
            if (r.start().isAfter(now.truncatedTo(ChronoUnit.SECONDS).plus(validity))) {
                throw new PkiException(ErrorCode.VALIDITY_NOT_ALLOWED,
                        "requested start " + r.start() + " is more than " + validity + " ahead");
            }
            start = max(start, r.start());
            end = min(min(end, r.end()), start.plus(validity));
        }
        if (confirmed.validity() != null) {
            start = max(start, confirmed.validity().start());
            end = min(end, confirmed.validity().end());
        }
        end = min(end, aa.validity().end());
        long seconds = Duration.between(start, end).getSeconds();
        if (seconds <= 0) {
            throw new PkiException(ErrorCode.VALIDITY_NOT_ALLOWED, "no AT validity left between " + start + " and " + end);
        }
        return encode(start, seconds);
    }

    /** The exact duration in the coarsest unit that fits, else rounded down (an AT never outlives its bound). */
    static Validity encode(Instant start, long seconds) {
        try {
            return Validity.ofSeconds(start, seconds);
        } catch (IllegalArgumentException notExact) {
            if (seconds / 60 <= 65_535) {
                return Validity.of(start, Validity.Unit.MINUTES, (int) (seconds / 60));
            }
            return Validity.of(start, Validity.Unit.HOURS, (int) Math.min(65_535, seconds / 3_600));
        }
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    @SafeVarargs
    private static <T> T firstNonNull(T... values) {
        for (T v : values) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }
}
