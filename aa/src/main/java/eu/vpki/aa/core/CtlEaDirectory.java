package eu.vpki.aa.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.validation.TrustStore;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * {@link EaDirectory} over the current CTL and CRL (as the DC serves them, verified against the
 * RCA): an EA is found when the CTL lists it as an EA; its chain to the RCA is validated and its
 * revocation checked once per CTL/CRL snapshot, and its validity at every request. Its access
 * points are the CTL's {@code aaAccessPoint} followed by the configured further replicas of that
 * EA, or, where configured, access points that replace both (an AA pointed at the EA replicas of its
 * own region, as a regional DNS name would). The snapshot suppliers are called per request and must be cheap (they return the current
 * immutable snapshot; refreshing is their business).
 */
public final class CtlEaDirectory implements EaDirectory {
    private record Snapshot(TrustStore trust, RcaCtl ctl, Map<HashedId8, EaEndpoint> validated) {
    }

    private final Supplier<TrustStore> trust;
    private final Supplier<RcaCtl> ctl;
    private final Map<HashedId8, List<URI>> furtherReplicas;
    private final Map<HashedId8, List<URI>> replacingAccessPoints;
    private volatile Snapshot snapshot;

    public CtlEaDirectory(Supplier<TrustStore> trust, Supplier<RcaCtl> ctl, Map<HashedId8, List<URI>> furtherReplicas) {
        this(trust, ctl, furtherReplicas, Map.of());
    }

    /** @param replacingAccessPoints per EA, the access points used instead of the CTL's and {@code furtherReplicas} */
    public CtlEaDirectory(Supplier<TrustStore> trust, Supplier<RcaCtl> ctl, Map<HashedId8, List<URI>> furtherReplicas,
                          Map<HashedId8, List<URI>> replacingAccessPoints) {
        this.trust = trust;
        this.ctl = ctl;
        this.furtherReplicas = Map.copyOf(furtherReplicas);
        this.replacingAccessPoints = Map.copyOf(replacingAccessPoints);
        if (this.replacingAccessPoints.values().stream().anyMatch(List::isEmpty)) {
            throw new IllegalArgumentException("an EA's replacing access points must not be empty");
        }
    }

    @Override
    public Optional<EaEndpoint> find(HashedId8 eaId, Instant now) {
        Snapshot s = current();
        EaEndpoint cached = s.validated().get(eaId);
        if (cached == null) {
            Optional<CtlEntry.Ea> entry = s.ctl().enrolmentAuthorities().stream()
                    .filter(e -> e.certificate().hashedId8().equals(eaId)).findFirst();
            if (entry.isEmpty()) {
                return Optional.empty();
            }
            EtsiCertificate ea = s.trust().requireAuthority(eaId, now);
            List<URI> points = new ArrayList<>(replacingAccessPoints.getOrDefault(eaId, List.of()));
            if (points.isEmpty()) {
                points.add(URI.create(entry.get().aaAccessPoint()));
                furtherReplicas.getOrDefault(eaId, List.of()).stream().filter(u -> !points.contains(u)).forEach(points::add);
            }
            cached = EaEndpoint.of(ea, points);
            s.validated().put(eaId, cached);
        } else if (!cached.certificate().validAt(now)) {
            throw new PkiException(now.isBefore(cached.certificate().validity().start())
                    ? ErrorCode.CERTIFICATE_NOT_YET_VALID
                    : ErrorCode.CERTIFICATE_EXPIRED, "EA " + eaId + " is not valid at " + now);
        }
        return Optional.of(cached);
    }

    private Snapshot current() {
        TrustStore t = trust.get();
        RcaCtl c = ctl.get();
        Snapshot s = snapshot;
        if (s == null || s.trust() != t || s.ctl() != c) {
            s = new Snapshot(t, c, new ConcurrentHashMap<>());
            snapshot = s;
        }
        return s;
    }
}
