package eu.vpki.dc.core;

import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.distribution.CtlSequence;
import eu.vpki.common.distribution.DistributionPaths;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts102941.Crl;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.SignedMessage;
import eu.vpki.common.storage.AtomicFiles;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Distribution Centre: holds, per trusted Root CA, the latest full CTL, delta CTL and CRL, in memory
 * and on disk ({@code {data-dir}/{RCA HEX}/ctl.coer}, {@code ctl-delta.coer}, {@code crl.coer}, each
 * written atomically before it is served), so a restarted DC serves at once.
 *
 * <p>{@link #accept} takes a list only if it verifies against the RCA certificate this DC trusts
 * (signer digest = that RCA, PSID 622/624, signature): the RCA's signature is the list's
 * authentication, whoever delivers it. It must also be newer than what is held: a CTL by
 * {@link CtlSequence#supersedes}, a delta only for the held full CTL's sequence, a CRL by a
 * {@code thisUpdate} not earlier than the held one. The same bytes again are accepted and change
 * nothing, so pushes and pulls can be retried freely. Every list taken is an audit event
 * ({@code list-accepted}: kind, RCA, CTL sequence or CRL thisUpdate, SHA-256 of the bytes).
 */
public final class DistributionCentre {
    private static final Logger LOG = LoggerFactory.getLogger(DistributionCentre.class);

    /** Outcome of {@link #accept}. */
    public enum Outcome { ACCEPTED, UNCHANGED }

    private record Held(byte[] bytes, Instant generated, Instant nextUpdate, RcaCtl ctl, Crl crl) {
    }

    private final TrustedRoots roots;
    private final Path dataDir;
    private final Clock clock;
    private final MeterRegistry registry;
    private final AuditLog audit;
    private final Map<HashedId8, Map<ListKind, Held>> lists = new ConcurrentHashMap<>();

    public DistributionCentre(TrustedRoots roots, Path dataDir, Clock clock, MeterRegistry registry, AuditLog audit) {
        this.audit = audit;
        this.roots = roots;
        this.dataDir = dataDir;
        this.clock = clock;
        this.registry = registry;
        for (EtsiCertificate rca : roots.all()) {
            HashedId8 id = rca.hashedId8();
            lists.put(id, new ConcurrentHashMap<>());
            Gauge.builder("vpki.dc.ctl.sequence", this,
                    d -> d.held(id, ListKind.CTL) == null ? -1 : d.held(id, ListKind.CTL).ctl().sequence())
                    .tag("rca", id.toHex()).description("ctlSequence of the CTL served").register(registry);
            Gauge.builder("vpki.dc.ctl.age", this, d -> age(d.held(id, ListKind.CTL)))
                    .tag("rca", id.toHex()).baseUnit("seconds").description("seconds since the served CTL was generated")
                    .register(registry);
            Gauge.builder("vpki.dc.crl.age", this, d -> age(d.held(id, ListKind.CRL)))
                    .tag("rca", id.toHex()).baseUnit("seconds").description("seconds since thisUpdate of the served CRL")
                    .register(registry);
        }
        loadFromDisk();
    }

    private double age(Held h) {
        return h == null || h.generated() == null ? -1 : Duration.between(h.generated(), clock.instant()).toMillis() / 1000.0;
    }

    private Held held(HashedId8 rca, ListKind kind) {
        Map<ListKind, Held> m = lists.get(rca);
        return m == null ? null : m.get(kind);
    }

    public TrustedRoots roots() {
        return roots;
    }

    /** Whether a full CTL and a CRL are held for every trusted RCA. */
    public boolean complete() {
        return roots.all().stream().allMatch(r -> held(r.hashedId8(), ListKind.CTL) != null && held(r.hashedId8(), ListKind.CRL) != null);
    }

    /** Whether a full CTL and a CRL are held for {@code rca}. */
    public boolean complete(HashedId8 rca) {
        return held(rca, ListKind.CTL) != null && held(rca, ListKind.CRL) != null;
    }

    /**
     * Verifies and, if newer, stores and serves a list. The RCA is the one the list names as signer;
     * when {@code expectedRca} is given (the id in the publish URL) it must be that one.
     *
     * @throws PkiException UNKNOWN_SIGNER / INVALID_SIGNATURE when not signed by a trusted RCA,
     *                      UNEXPECTED_CONTENT / MALFORMED_ENCODING for other content, STALE_DATA when older
     */
    public synchronized Outcome accept(ListKind kind, byte[] body, HashedId8 expectedRca) {
        try {
            Outcome o = acceptVerified(kind, body, expectedRca);
            registry.counter("vpki.dc.lists.received", "kind", kind.pathName(), "result", o.name().toLowerCase()).increment();
            return o;
        } catch (PkiException e) {
            registry.counter("vpki.dc.lists.received", "kind", kind.pathName(), "result", "refused").increment();
            LOG.warn("{} refused: {}", kind, e.getMessage());
            throw e;
        }
    }

    private Outcome acceptVerified(ListKind kind, byte[] body, HashedId8 expectedRca) {
        SignedMessage signed = SignedMessage.parse(body);
        HashedId8 signer = signed.signerDigest().orElseThrow(() -> new PkiException(ErrorCode.UNKNOWN_SIGNER,
                "a trust list must name its RCA signer by digest"));
        if (expectedRca != null && !expectedRca.equals(signer)) {
            throw new PkiException(ErrorCode.UNKNOWN_SIGNER, "list signed by " + signer + " published for RCA " + expectedRca);
        }
        EtsiCertificate rca = roots.get(signer).orElseThrow(() -> new PkiException(ErrorCode.UNKNOWN_SIGNER,
                "list signed by " + signer + ", a root this DC does not trust"));
        Instant generated = signed.generationTime().orElse(null);
        Held current = held(signer, kind);
        if (current != null && Arrays.equals(current.bytes(), body)) {
            return Outcome.UNCHANGED;
        }
        Instant now = clock.instant();
        Held next;
        switch (kind) {
            case CTL, DELTA_CTL -> {
                RcaCtl ctl = TrustLists.readCtl(body, rca);
                if (ctl.full() != (kind == ListKind.CTL)) {
                    throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, kind == ListKind.CTL
                            ? "a delta CTL was published as the full CTL"
                            : "a full CTL was published as the delta");
                }
                if (kind == ListKind.CTL) {
                    if (current != null && !CtlSequence.supersedes(ctl.sequence(), generated, current.ctl().sequence(),
                            current.generated(), current.nextUpdate(), now)) {
                        throw new PkiException(ErrorCode.STALE_DATA, "CTL " + ctl.sequence() + " does not follow the held CTL "
                                + current.ctl().sequence());
                    }
                } else {
                    Held full = held(signer, ListKind.CTL);
                    if (full == null || full.ctl().sequence() != ctl.sequence()) {
                        throw new PkiException(ErrorCode.STALE_DATA, "delta CTL " + ctl.sequence()
                                + " does not belong to the held full CTL " + (full == null ? "(none)" : full.ctl().sequence()));
                    }
                }
                next = new Held(body, generated, ctl.nextUpdate(), ctl, null);
            }
            case CRL -> {
                Crl crl = TrustLists.readCrl(body, rca);
                if (current != null && crl.thisUpdate().isBefore(current.crl().thisUpdate())) {
                    throw new PkiException(ErrorCode.STALE_DATA, "CRL of " + crl.thisUpdate() + " is older than the held one of "
                            + current.crl().thisUpdate());
                }
                next = new Held(body, crl.thisUpdate(), crl.nextUpdate(), null, crl);
            }
            default -> throw new IllegalStateException();
        }
        Path dir = dataDir.resolve(signer.toHex());
        AtomicFiles.write(dir.resolve(kind.fileName()), body);
        audit.event("list-accepted", "kind", kind.pathName(), "rca", signer.toHex(),
                next.ctl() != null ? "sequence" : "thisUpdate", next.ctl() != null
                        ? Integer.toString(next.ctl().sequence())
                        : next.crl().thisUpdate().toString(),
                "sha256", DistributionPaths.etag(body).replace("\"", ""));
        lists.get(signer).put(kind, next);
        if (kind == ListKind.CTL && current != null) {
            // the held delta belonged to the replaced full CTL
            lists.get(signer).remove(ListKind.DELTA_CTL);
            try {
                Files.deleteIfExists(dir.resolve(ListKind.DELTA_CTL.fileName()));
            } catch (IOException e) {
                LOG.warn("cannot delete the outdated delta CTL: {}", e.toString());
            }
        }
        LOG.info("serving {} of RCA {}{}", kind, signer, next.ctl() != null ? " sequence " + next.ctl().sequence() : "");
        return Outcome.ACCEPTED;
    }

    /**
     * What to serve for {@code GET /getctl}, {@code /getctl/.../delta}, {@code /getcrl}.
     *
     * @throws PkiException NOT_FOUND for an RCA this DC does not serve, or a list not held yet
     */
    public ServedList list(HashedId8 rca, ListKind kind) {
        if (roots.get(rca).isEmpty()) {
            throw new PkiException(ErrorCode.NOT_FOUND, "this DC serves no RCA " + rca);
        }
        Held h = held(rca, kind);
        if (h == null) {
            throw new PkiException(ErrorCode.NOT_FOUND, "no " + kind + " of RCA " + rca + " received yet");
        }
        return new ServedList(h.bytes(), kind.contentType(), h.nextUpdate());
    }

    /** The RCA certificate, for {@code GET /getcert}. */
    public ServedList certificate(HashedId8 rca) {
        EtsiCertificate c = roots.get(rca).orElseThrow(() -> new PkiException(ErrorCode.NOT_FOUND, "this DC serves no RCA " + rca));
        return new ServedList(c.encoded(), DistributionPaths.CERTIFICATE_CONTENT_TYPE, c.validity().end());
    }

    private void loadFromDisk() {
        for (EtsiCertificate rca : roots.all()) {
            for (ListKind kind : ListKind.values()) {
                Path f = dataDir.resolve(rca.hashedId8().toHex()).resolve(kind.fileName());
                if (!Files.exists(f)) {
                    continue;
                }
                try {
                    acceptVerified(kind, Files.readAllBytes(f), rca.hashedId8());
                } catch (IOException | PkiException e) {
                    LOG.warn("ignoring {}: {}", f, e.getMessage());
                }
            }
        }
    }
}
