package eu.vpki.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Check 4: stale validations. Once a station's revocation was acknowledged (at {@code r}), every AT
 * request (validated by an EA replica for the AA) and every enrolment of that station answered later
 * must be refused. A validation is judged by its <b>completion</b>: one that got a certificate after
 * {@code r} is stale, its staleness the time from {@code r} to the answer (an upper bound of how long
 * the validating replica lagged). So a request in flight across a pause or a cut is judged like any
 * other. Violations:
 * <ul>
 *   <li>SYNC (docs/aa.md: the very next AT request is refused; a replica cut off serves nothing once its
 *       lease ran out): a request invoked after {@code r}, or one in flight across {@code r} answered
 *       more than {@link #LEASE_BOUND_MS} after it (whichever replica answered held a revoked station
 *       valid beyond its lease); one in flight across {@code r} and answered within the lease may have
 *       been validated before the revocation: reported, not a violation;</li>
 *   <li>ASYNC (refused within 5 s on a healthy group; a replica cut off stops serving within the lease):
 *       one answered more than {@link #ASYNC_BOUND_MS} after {@code r} with no fault active (or just
 *       ended) at {@code r} or at the answer; and one answered by a replica that was cut off (a target of
 *       a pause or a partition) for longer than {@link #LEASE_BOUND_MS} at the answer: until the heal of a
 *       partition, until the group recovered from a pause (a replica paused beyond failure detection is
 *       back in the group only then). An enrolment names the replica that answered; an AT request names
 *       only the AA (the EA replica the AA asked is not recorded), so the second rule judges enrolments
 *       only.</li>
 * </ul>
 * A station whose revocation was itself lost (undone, or the record gone; see {@link LostWritesChecker})
 * stays valid for good: its stale validations are violations, counted apart, and the staleness figures
 * cover the others only.
 */
final class StaleValidationChecker implements Checker {
    static final long ASYNC_BOUND_MS = 5_000;
    /** The lease (2 s) plus half a second of scheduling on a busy machine, as for minority writes. */
    static final long LEASE_BOUND_MS = MinorityWritesChecker.ASYNC_MINORITY_WINDOW_MS;
    private static final String ON_LOST_REVOCATION = " (the revocation itself was lost)";

    /** Whether a finding of this check is on a station whose revocation was lost (no staleness: it stays valid for good). */
    static boolean onLostRevocation(Finding f) {
        return f.check() == Check.STALE_VALIDATIONS && f.detail().endsWith(ON_LOST_REVOCATION);
    }

    @Override
    public CheckResult check(RunRecord run) {
        Writes writes = new Writes(run.ops());
        Attribution attribution = new Attribution(run.faults());
        Map<String, Long> revokedAt = new HashMap<>();
        for (Op op : run.ops()) {
            if (op.type() == Op.Type.REVOKE && op.acknowledged()) {
                revokedAt.merge(op.station(), op.completedMs(), Math::min);
            }
        }
        java.util.Set<String> revocationLost = new java.util.HashSet<>();
        for (LostWritesChecker.Loss loss : LostWritesChecker.losses(run)) {
            if (loss.write().type() == Op.Type.REVOKE || loss.what().equals("station record lost")
                    || loss.what().equals("registration lost")) {
                revocationLost.add(loss.write().station());
            }
        }
        List<Finding> findings = new ArrayList<>();
        long afterRevocation = 0;
        long onLostRevocation = 0;
        List<Long> staleness = new ArrayList<>();
        for (Map.Entry<String, Long> e : revokedAt.entrySet()) {
            long r = e.getValue();
            for (Op op : writes.of(e.getKey())) {
                if ((op.type() != Op.Type.AUTHORIZE && !op.type().enrolment()) || op.completedMs() <= r) {
                    continue;
                }
                afterRevocation++;
                if (!op.acknowledged()) {
                    continue;
                }
                long late = op.completedMs() - r;
                boolean lost = revocationLost.contains(e.getKey());
                if (lost) {
                    onLostRevocation++;
                } else {
                    staleness.add(late);
                }
                int fault = attribution.around(op.completedMs());
                String why;
                if (lost) {
                    why = "";
                } else if (run.info().sync()) {
                    why = op.invokedMs() > r
                            ? "requested after the revocation was acknowledged"
                            : late > LEASE_BOUND_MS ? "in flight across the revocation and answered beyond the lease" : null;
                } else {
                    FaultEvent cut = cutOffBeyondLease(run, op);
                    why = cut != null
                            ? "answered by " + op.target() + ", cut off since " + cutStart(cut) + " ms (fault #" + cut.index()
                                    + "), beyond the lease"
                            : fault < 0 && attribution.around(r) < 0 && late > ASYNC_BOUND_MS
                                    ? "beyond " + ASYNC_BOUND_MS
                                            + " ms on a healthy group"
                                    : null;
                    if (cut != null) {
                        fault = cut.index();
                    }
                }
                findings.add(new Finding(Check.STALE_VALIDATIONS, fault, "op " + op.id() + " " + op.type() + " " + op.station()
                        + " via " + op.target(),
                        (op.type() == Op.Type.AUTHORIZE ? "AT issued " : "EC issued ") + late
                                + " ms after the revocation was acknowledged" + (why == null || why.isEmpty() ? "" : ": " + why)
                                + (lost ? ON_LOST_REVOCATION : ""),
                        lost || why != null, late));
            }
        }
        Map<String, Long> figures = new LinkedHashMap<>();
        figures.put("revocations", (long) revokedAt.size());
        figures.put("requestsAfterRevocation", afterRevocation);
        figures.put("stale", (long) staleness.size() + onLostRevocation);
        figures.put("staleOnLostRevocation", onLostRevocation);
        long[] sorted = staleness.stream().mapToLong(Long::longValue).sorted().toArray();
        figures.put("maxStalenessMs", sorted.length == 0 ? 0 : sorted[sorted.length - 1]);
        figures.put("medianStalenessMs", sorted.length == 0 ? 0 : sorted[sorted.length / 2]);
        String note = revokedAt.isEmpty()
                ? "no revocation was acknowledged"
                : afterRevocation == 0
                        ? "no request came after a revocation"
                        : "";
        return new CheckResult(Check.STALE_VALIDATIONS, findings, figures, note);
    }

    /**
     * The pause or partition that had cut off the replica that answered {@code op} for longer than
     * {@link #LEASE_BOUND_MS} when the answer came (and had not yet recovered); null if none.
     */
    static FaultEvent cutOffBeyondLease(RunRecord run, Op op) {
        for (FaultEvent f : run.faults()) {
            long start = cutStart(f);
            if (start >= 0 && f.targets().contains(op.target()) && op.completedMs() > start + LEASE_BOUND_MS
                    && op.completedMs() <= cutEnd(f)) {
                return f;
            }
        }
        return null;
    }

    /**
     * Until when the targets count as cut off: a partition's heal (after it they reach the group again);
     * a pause's recovery (a replica paused beyond failure detection was excluded, and is back in the group
     * only once the views are whole again).
     */
    private static long cutEnd(FaultEvent f) {
        long healed = f.stepAt("healed");
        return f.kind().network() && healed >= 0 ? healed : f.endMs();
    }

    /** When a pause or a partition cut its targets off; -1 for other faults. */
    private static long cutStart(FaultEvent f) {
        if (f.kind() == FaultKind.PAUSE) {
            return f.stepAt("paused");
        }
        return f.kind().network() ? f.stepAt("cut") : -1;
    }
}
