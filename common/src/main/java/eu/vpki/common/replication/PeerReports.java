package eu.vpki.common.replication;

import org.jgroups.Address;
import org.jgroups.View;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * What this member knows of its peers: the latest {@link AppliedReport} each member of the view sent,
 * and which of them hold this member's lease. Used by the {@link AntiEntropy} round and the
 * {@link ServingGate}.
 *
 * <p>The lease is a round trip: each report carries a stamp of this member's monotonic clock taken
 * before it is sent ({@link #stamp()}), peers echo the stamp of the latest report they received in
 * their own reports, and a peer holds this member's lease for {@link ReplicationConfig#lease()} from
 * the stamp it echoed, that is from when this member SENT what the peer answered. A report delivered
 * or processed late (a loaded machine) extends the lease from its sending, so it ends sooner, never
 * later: cut off at time t, this member stops serving by t + lease on its own clock, whatever the
 * delays. See {@code docs/design-replication-recovery.md}.
 *
 * <p>Threads: reports arrive on JGroups threads ({@link #received}); the rest is called by the
 * control thread and, for {@link #leaseHolds} and {@link #majorityView}, by any thread.
 */
final class PeerReports {
    /** Stamps of sent reports kept to recognise echoes: far more than one lease's worth (four). */
    private static final int SENT_STAMPS_KEPT = 64;

    /** A report and when (this member's monotonic clock) it was received. */
    record Heard(AppliedReport report, long nanos) {
    }

    private final ReplicationConfig config;
    private final String origin;
    private final LongSupplier nanos;
    private final long leaseNanos;
    private final Map<Address, Heard> heard = new ConcurrentHashMap<>();
    /** Per peer, the stamp of this member's latest report that the peer echoed (when this member sent it). */
    private final Map<Address, Long> leaseFrom = new ConcurrentHashMap<>();
    /** Stamps of this member's latest reports, oldest first (an echo of anything else extends nothing). */
    private final Deque<Long> sentStamps = new ArrayDeque<>();
    private volatile View view;
    private volatile Address self;

    /** @param nanos this member's monotonic clock */
    PeerReports(ReplicationConfig config, String origin, LongSupplier nanos) {
        this.config = config;
        this.origin = origin;
        this.nanos = nanos;
        this.leaseNanos = config.lease().toNanos();
    }

    /** After joining as {@code address} with the view {@code initial}. */
    void start(Address address, View initial) {
        self = address;
        view = initial;
    }

    /** A new view: reports and leases of members that left are forgotten. */
    void viewChanged(View newView) {
        view = newView;
        heard.keySet().removeIf(member -> !newView.containsMember(member));
        leaseFrom.keySet().removeIf(member -> !newView.containsMember(member));
    }

    /**
     * A report from {@code member} (JGroups thread). If it echoes the stamp of a report this member sent,
     * the member holds this member's lease from that stamp.
     */
    void received(Address member, AppliedReport report) {
        View current = view;
        if (current != null && current.containsMember(member) && !member.equals(self)) {
            Heard before = heard.get(member);
            if (before != null && before.report().origin().equals(report.origin()) && report.stamp() <= before.report().stamp()) {
                return; // an older report of that incarnation (replayed, or overtaken): nothing new
            }
            heard.put(member, new Heard(report, nanos.getAsLong()));
            Long echoed = report.echoes().get(origin);
            if (echoed != null && sentStamp(echoed)) {
                leaseFrom.merge(member, echoed, Math::max);
            }
        }
    }

    private boolean sentStamp(long stamp) {
        synchronized (sentStamps) {
            return sentStamps.contains(stamp);
        }
    }

    /** The stamp of a report to be sent now, remembered so that an echo of it can be recognised. */
    long stamp() {
        long stamp = nanos.getAsLong();
        synchronized (sentStamps) {
            if (sentStamps.isEmpty() || sentStamps.peekLast() != stamp) {
                sentStamps.addLast(stamp);
            }
            while (sentStamps.size() > SENT_STAMPS_KEPT) {
                sentStamps.pollFirst();
            }
        }
        return stamp;
    }

    /** Per origin of a member of the view, the stamp of its latest report (what this member's report echoes). */
    Map<String, Long> echoes() {
        Map<String, Long> echoes = new HashMap<>();
        heard.forEach((member, entry) -> {
            if (inView(member)) {
                echoes.put(entry.report().origin(), entry.report().stamp());
            }
        });
        return echoes;
    }

    /** The reports of members of the view received no longer than the lease before {@code now}. */
    Map<Address, AppliedReport> fresh(long now) {
        Map<Address, AppliedReport> fresh = new HashMap<>();
        heard.forEach((member, entry) -> {
            if (now - entry.nanos() <= leaseNanos && inView(member)) {
                fresh.put(member, entry.report());
            }
        });
        return fresh;
    }

    /** The reports of members of the view received at or after {@code sinceNanos}. */
    List<AppliedReport> since(long sinceNanos) {
        List<AppliedReport> since = new ArrayList<>();
        heard.forEach((member, entry) -> {
            if (entry.nanos() >= sinceNanos && inView(member)) {
                since.add(entry.report());
            }
        });
        return since;
    }

    /** The latest report of each member of the view other than this one, with when it arrived (none yet: absent). */
    Map<Address, Heard> heard() {
        Map<Address, Heard> inView = new HashMap<>();
        heard.forEach((member, entry) -> {
            if (inView(member)) {
                inView.put(member, entry);
            }
        });
        return inView;
    }

    /** The current view (null before {@link #start}). */
    View view() {
        return view;
    }

    /** Whether the view holds a majority of the expected members. */
    boolean majorityView() {
        View current = view;
        return current != null && config.isMajority(current.size());
    }

    /**
     * Whether enough members (itself included) to form a majority hold this member's lease at {@code now}:
     * each echoed a report this member sent no longer than the lease ago.
     */
    boolean leaseHolds(long now) {
        int members = 1;
        for (Map.Entry<Address, Long> entry : leaseFrom.entrySet()) {
            if (now - entry.getValue() <= leaseNanos && inView(entry.getKey())) {
                members++;
            }
        }
        return members >= config.majority();
    }

    private boolean inView(Address member) {
        View current = view;
        return current != null && current.containsMember(member);
    }
}
