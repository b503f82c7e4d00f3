package eu.vpki.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Check 4: stale validations. Once a station's revocation was acknowledged, every later AT request
 * (validated by an EA replica for the AA) and every later enrolment of that station must be
 * refused. Each one that got a certificate anyway is stale; its staleness is the time from the
 * revocation's acknowledgement to the request's invocation (a lower bound of how long the
 * validating replica lagged). docs/aa.md promises: SYNC, the very next AT request is refused;
 * ASYNC, within 5 seconds on a healthy group, and no bound while replicas are partitioned or an
 * origin died. So in SYNC every stale validation is a violation; in ASYNC one that came more than
 * {@link #ASYNC_BOUND_MS} late with no fault active (or just ended) is. A station whose revocation
 * was itself lost (undone, or the record gone; see {@link LostWritesChecker}) stays valid for good:
 * its stale validations are counted apart, and the staleness figures cover the others only.
 */
final class StaleValidationChecker implements Checker {
    static final long ASYNC_BOUND_MS = 5_000;
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
            for (Op op : writes.of(e.getKey())) {
                if ((op.type() != Op.Type.AUTHORIZE && !op.type().enrolment()) || op.invokedMs() <= e.getValue()) {
                    continue;
                }
                afterRevocation++;
                if (!op.acknowledged()) {
                    continue;
                }
                long late = op.invokedMs() - e.getValue();
                boolean lost = revocationLost.contains(e.getKey());
                if (lost) {
                    onLostRevocation++;
                } else {
                    staleness.add(late);
                }
                int fault = attribution.around(op.invokedMs());
                boolean violation = run.info().sync() || lost || fault < 0 && attribution.around(e.getValue()) < 0 && late > ASYNC_BOUND_MS;
                findings.add(new Finding(Check.STALE_VALIDATIONS, fault, "op " + op.id() + " " + op.type() + " " + op.station()
                        + " via " + op.target(), (op.type() == Op.Type.AUTHORIZE ? "AT issued " : "EC issued ") + late
                        + " ms after the revocation was acknowledged" + (lost ? ON_LOST_REVOCATION : ""), violation, late));
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
        String note = revokedAt.isEmpty() ? "no revocation was acknowledged" : afterRevocation == 0
                ? "no request came after a revocation" : "";
        return new CheckResult(Check.STALE_VALIDATIONS, findings, figures, note);
    }
}
