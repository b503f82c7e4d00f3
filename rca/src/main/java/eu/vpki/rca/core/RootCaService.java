package eu.vpki.rca.core;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * Owns the Root CA's state: every change goes through {@link #apply}, which computes the new state,
 * re-issues the CTL and/or CRL, writes it all to the {@link RcaStateStore} and only then makes it
 * current and returns (so a caller answers only after the change is durable), then hands the lists
 * to the {@link TrustListSink}s. Changes are serialized. A failure leaves the previous state current.
 *
 * <p>Renewal: {@link #renewIfDue()} re-issues a list once {@link RcaSettings#renewalFraction()} of its
 * validity (issuance to {@code nextUpdate}) has elapsed; the shell calls it periodically.
 */
public final class RootCaService {
    private static final Logger LOG = LoggerFactory.getLogger(RootCaService.class);

    private final RootCa root;
    private final RcaSettings settings;
    private final RcaStateStore store;
    private final Clock clock;
    private final CtlPublisher ctlPublisher;
    private final CrlPublisher crlPublisher;
    private final List<TrustListSink> sinks = new CopyOnWriteArrayList<>();
    private volatile RcaState state;

    public RootCaService(RootCa root, RcaSettings settings, RcaStateStore store, RcaState initial, Clock clock, MeterRegistry registry) {
        this.root = root;
        this.settings = settings;
        this.store = store;
        this.clock = clock;
        this.ctlPublisher = new CtlPublisher(root, settings);
        this.crlPublisher = new CrlPublisher(root, settings);
        this.state = initial;
        Gauge.builder("vpki.rca.ctl.sequence", this, s -> s.state.ctl() == null ? -1 : s.state.ctl().sequence())
                .description("ctlSequence of the current CTL").register(registry);
        Gauge.builder("vpki.rca.ctl.age", this, s -> s.state.ctl() == null ? -1 : age(s.state.ctl().issuedAt()))
                .baseUnit("seconds").description("seconds since the current CTL was issued").register(registry);
        Gauge.builder("vpki.rca.crl.age", this, s -> s.state.crl() == null ? -1 : age(s.state.crl().thisUpdate()))
                .baseUnit("seconds").description("seconds since thisUpdate of the current CRL").register(registry);
        for (AuthorityType t : AuthorityType.values()) {
            Gauge.builder("vpki.rca.authorities.listed", this, s -> s.state.authorities().stream()
                    .filter(a -> a.type() == t && a.listedAt(s.clock.instant())).count())
                    .tag("type", t.name()).description("EAs/AAs in the CTL").register(registry);
        }
    }

    private double age(Instant t) {
        return Duration.between(t, clock.instant()).toMillis() / 1000.0;
    }

    public RootCa root() {
        return root;
    }

    public RcaState state() {
        return state;
    }

    public RcaSettings settings() {
        return settings;
    }

    public void addSink(TrustListSink sink) {
        sinks.add(sink);
    }

    /** Issues whatever list is missing (first start) and persists. */
    public synchronized void initialise() {
        if (state.ctl() == null || state.crl() == null) {
            apply(UnaryOperator.identity(), state.ctl() == null, state.crl() == null);
        }
    }

    /**
     * Applies {@code change}, re-issues the lists asked for, persists, then publishes.
     *
     * @return the new state
     */
    public RcaState apply(UnaryOperator<RcaState> change, boolean reissueCtl, boolean reissueCrl) {
        PublishedLists lists;
        RcaState next;
        synchronized (this) {
            Instant now = clock.instant();
            next = change.apply(state);
            if (reissueCtl) {
                next = next.withCtl(ctlPublisher.issue(next, now));
            }
            if (reissueCrl) {
                next = next.withCrl(crlPublisher.issue(next, now));
            }
            store.save(next);
            state = next;
            lists = published(next);
        }
        if (reissueCtl || reissueCrl) {
            LOG.info("issued{}{}", reissueCtl ? " CTL " + next.ctl().sequence() + " (next update " + next.ctl().nextUpdate() + ")" : "",
                    reissueCrl ? " CRL of " + next.crl().thisUpdate() + " with " + revokedCount(next) + " revoked" : "");
        }
        for (TrustListSink sink : sinks) {
            try {
                sink.publish(lists);
            } catch (RuntimeException e) {
                LOG.warn("publishing the trust lists failed: {}", e.toString());
            }
        }
        return next;
    }

    private static long revokedCount(RcaState s) {
        return s.authorities().stream().filter(Authority::revoked).count();
    }

    /** Re-issues the CTL and/or CRL whose renewal point has passed. @return whether anything was re-issued */
    public boolean renewIfDue() {
        Instant now = clock.instant();
        RcaState s = state;
        boolean ctl = s.ctl() == null || due(s.ctl().issuedAt(), s.ctl().nextUpdate(), now);
        boolean crl = s.crl() == null || due(s.crl().thisUpdate(), s.crl().nextUpdate(), now);
        // a listed authority whose certificate expired must leave the CTL
        ctl |= s.ctl() != null && s.authorities().stream()
                .anyMatch(a -> s.ctl().listedCertificates().contains(a.hashedId8().toHex()) && !a.listedAt(now));
        if (!ctl && !crl) {
            return false;
        }
        apply(UnaryOperator.identity(), ctl, crl);
        return true;
    }

    private boolean due(Instant issued, Instant nextUpdate, Instant now) {
        long validity = Duration.between(issued, nextUpdate).toMillis();
        return !now.isBefore(issued.plusMillis((long) (validity * settings.renewalFraction())));
    }

    /** The lists as currently published. */
    public PublishedLists published() {
        return published(state);
    }

    private PublishedLists published(RcaState s) {
        return new PublishedLists(root.certificate(), s.ctl().sequence(), s.ctl().full(), s.ctl().delta(),
                s.crl().thisUpdate(), s.crl().encoded());
    }
}
