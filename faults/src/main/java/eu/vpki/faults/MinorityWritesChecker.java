package eu.vpki.faults;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Check 5: writes acknowledged on the minority side. During each partition (from the cut to the
 * heal) the cut-off replicas are a minority of the group. docs/replication.md promises, in SYNC
 * modes, that only the side with a majority acknowledges: every write acknowledged by a cut-off
 * replica in that window is a violation. In ASYNC modes the minority acknowledges until it notices
 * (its lease, 2 s, runs out) and those writes are merged after the heal (the lost-writes check sees
 * to that): a minority write is a violation only when acknowledged more than
 * {@link #ASYNC_MINORITY_WINDOW_MS} after the cut. Reported with its delay after the cut, and how many
 * came after failure detection should have shrunk the minority's view.
 */
final class MinorityWritesChecker implements Checker {
    /** ASYNC: the lease (4 status intervals of 500 ms) plus half a second for scheduling on a busy machine. */
    static final long ASYNC_MINORITY_WINDOW_MS = 2_500;

    @Override
    public CheckResult check(RunRecord run) {
        List<FaultEvent> partitions = run.faults().stream()
                .filter(f -> f.kind().network() && Attribution.injected(f) && f.stepAt("cut") >= 0).toList();
        List<Finding> findings = new ArrayList<>();
        long afterDetection = 0;
        long minorityAttempts = 0;
        for (FaultEvent p : partitions) {
            long cut = p.stepAt("cut");
            long healed = p.stepAt("healed") >= 0 ? p.stepAt("healed") : p.endMs();
            for (Op op : run.ops()) {
                if (!op.type().write() || !p.targets().contains(op.target()) || op.completedMs() < cut || op.invokedMs() > healed) {
                    continue;
                }
                minorityAttempts++;
                if (!op.acknowledged() || op.completedMs() > healed) {
                    continue;
                }
                long delay = op.completedMs() - cut;
                if (delay > run.info().failureDetectionMs()) {
                    afterDetection++;
                }
                boolean violation = run.info().sync() || delay > ASYNC_MINORITY_WINDOW_MS;
                findings.add(new Finding(Check.MINORITY_WRITES, p.index(), "op " + op.id() + " " + op.type() + " " + op.station(),
                        "acknowledged by " + op.target() + " on the minority side " + delay + " ms after the cut"
                                + (violation ? "" : " (ASYNC, within the lease: allowed)"),
                        violation, delay));
            }
        }
        Map<String, Long> figures = new LinkedHashMap<>();
        figures.put("partitions", (long) partitions.size());
        figures.put("minorityWriteAttempts", minorityAttempts);
        figures.put("minorityAcknowledged", (long) findings.size());
        figures.put("afterFailureDetection", afterDetection);
        return new CheckResult(Check.MINORITY_WRITES, findings, figures,
                partitions.isEmpty() ? "no partition was injected: not measured" : "");
    }
}
