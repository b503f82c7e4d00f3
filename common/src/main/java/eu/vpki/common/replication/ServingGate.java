package eu.vpki.common.replication;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Whether this member may serve requests, and why not: its view holds a majority of the expected
 * members, a majority holds its lease ({@link PeerReports}: so a member cut off or paused stops
 * serving within the lease, before a SYNC write it never received can be acknowledged without it:
 * the lease is shorter than the reply timeout), after joining or a merge it has applied everything a
 * majority had applied, it holds no gap, and it is not lagging (nothing it was told of, or received,
 * has waited longer than the lease). See {@code docs/replication.md} ("Serving") and
 * {@code docs/design-replication-recovery.md}.
 *
 * <p>Threads: {@link #started}, {@link #merged}, {@link #laggingBehind} and {@link #afterRound} run on
 * the replica's control thread (or a JGroups thread for a view change); the queries on any thread.
 */
final class ServingGate {
    private static final Logger log = LoggerFactory.getLogger(ServingGate.class);

    /** Why this member serves or not: a state of {@link ReplicaStatus} and its detail. */
    record Verdict(ReplicaStatus.State state, String detail) {
    }

    private final ReplicationConfig config;
    private final Applier applier;
    private final AppliedWatermarks watermarks;
    private final PeerReports reports;
    private final LongSupplier nanos;
    private final long leaseNanos;
    private volatile boolean synced;
    private volatile long syncStartNanos;
    private volatile boolean lagging;
    /** Why this replica's state is incomplete (an interrupted or running state transfer), or null: it is complete. */
    private volatile String incomplete;
    // control thread only
    private Map<String, Long> syncTarget;
    private long syncDeliveredMark;

    /** @param nanos this member's monotonic clock */
    ServingGate(ReplicationConfig config, Applier applier, AppliedWatermarks watermarks, PeerReports reports, LongSupplier nanos) {
        this.config = config;
        this.applier = applier;
        this.watermarks = watermarks;
        this.reports = reports;
        this.nanos = nanos;
        this.leaseNanos = config.lease().toNanos();
    }

    /**
     * After joining: not serving until caught up with a majority, unless this member alone is a
     * majority (a one-member group has nobody to catch up with).
     */
    void started() {
        syncStartNanos = nanos.getAsLong();
        synced = config.majority() == 1;
    }

    /** After a merge: serves again only once it caught up with what a majority applied (the other side may have written meanwhile). */
    void merged() {
        synced = false;
        syncStartNanos = nanos.getAsLong();
    }

    /**
     * This replica's state is incomplete ({@code why}), or complete again ({@code null}): a state transfer replaces it,
     * or one was interrupted ({@link RedisStateMachine#incompleteState()}). While incomplete it serves nothing, whatever
     * it applied.
     */
    void incomplete(String why) {
        if (why != null && incomplete == null) {
            log.warn("replica {} holds an incomplete state ({}): out of service until a complete snapshot is installed",
                    config.replicaId(), why);
        } else if (why == null && incomplete != null) {
            log.info("replica {} holds a complete state again", config.replicaId());
        }
        incomplete = why;
    }

    /** Whether this replica's state is incomplete ({@link #incomplete(String)}). */
    boolean incomplete() {
        return incomplete != null;
    }

    /** Whether something a peer applied has been missing here longer than the lease (from the anti-entropy round). */
    void laggingBehind(boolean lagging) {
        this.lagging = lagging;
    }

    /** At the end of an anti-entropy round at {@code now}: checks whether a member catching up has caught up. */
    void afterRound(long now) {
        if (!synced) {
            checkSynced(now);
        }
    }

    /**
     * After joining or a merge: once reports from a majority (this member included) arrived, the
     * target is everything they applied; this member is synced once it applied the target, handled
     * every command delivered until then, and holds no gap.
     */
    private void checkSynced(long now) {
        if (syncTarget == null) {
            List<AppliedReport> since = reports.since(syncStartNanos);
            if (since.size() + 1 < config.majority()) {
                return;
            }
            Map<String, Long> target = new HashMap<>();
            since.forEach(report -> report.applied().forEach((of, seq) -> target.merge(of, seq, Math::max)));
            syncTarget = target;
            syncDeliveredMark = applier.deliveredCount();
        }
        for (Map.Entry<String, Long> entry : syncTarget.entrySet()) {
            if (watermarks.appliedSeq(entry.getKey()) < entry.getValue()) {
                return;
            }
        }
        if (applier.processed() >= syncDeliveredMark && applier.gaps().isEmpty()) {
            synced = true;
            syncTarget = null;
            log.info("replica {} caught up with a majority after {} ms; serving", config.replicaId(),
                    Duration.ofNanos(now - syncStartNanos).toMillis());
        }
    }

    /** Whether this member may serve requests now (any thread). */
    boolean serving(long now) {
        return incomplete == null && synced && !lagging && applier.gaps().isEmpty() && reports.majorityView() && reports.leaseHolds(now)
                && !waitedTooLong(now);
    }

    /**
     * Why this member serves or not at {@code now}, checked in this order: an incomplete state, a minority view, an
     * expired lease, a gap, catching up, lagging.
     *
     * @param view the size of its view, as the detail names it
     * @param gaps the applier's gaps, read once by the caller
     */
    Verdict verdict(long now, int view, Map<String, Applier.Gap> gaps) {
        int expected = config.expectedMembers();
        String partial = incomplete;
        if (partial != null) {
            return new Verdict(ReplicaStatus.State.CATCHING_UP, "state incomplete: " + partial
                    + "; out of service until a complete snapshot is installed");
        }
        if (!reports.majorityView()) {
            return new Verdict(ReplicaStatus.State.MINORITY,
                    "view of " + view + " holds no majority of the " + expected + " expected members");
        }
        if (!reports.leaseHolds(now)) {
            return new Verdict(ReplicaStatus.State.MINORITY, "no majority of the " + expected
                    + " expected members echoed a report it sent within the last " + config.lease() + " (its lease)");
        }
        if (!gaps.isEmpty()) {
            return new Verdict(ReplicaStatus.State.GAP, "commands missing here: " + gaps.values().stream()
                    .map(gap -> gap.origin() + " " + gap.from() + ".." + (gap.heldFrom() - 1)).toList());
        }
        if (!synced) {
            return new Verdict(ReplicaStatus.State.CATCHING_UP, "fetching what a majority applied");
        }
        if (lagging(now)) {
            return new Verdict(ReplicaStatus.State.CATCHING_UP, "lagging more than " + config.lease() + " behind");
        }
        return new Verdict(ReplicaStatus.State.SERVING, "serving");
    }

    private boolean waitedTooLong(long now) {
        long oldest = applier.oldestWaitingNanos();
        return oldest != 0 && now - oldest > leaseNanos;
    }

    /** Whether it caught up with a majority since it joined or last merged. */
    boolean synced() {
        return synced;
    }

    /** Whether it is lagging: behind a peer, or a command waited here, longer than the lease. */
    boolean lagging(long now) {
        return lagging || waitedTooLong(now);
    }
}
