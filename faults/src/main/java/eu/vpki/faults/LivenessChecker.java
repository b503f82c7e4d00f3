package eu.vpki.faults;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Check 8: liveness after the faults. From the moment the harness healed everything
 * ({@link RunRecord.Serving#healedMs}: every cut healed, every paused replica resumed, every process
 * that was down started; no fault acts after it) until the replicas' state was read, each replica's
 * health was probed about once a second ({@code /actuator/health} on its management port: UP means in
 * a majority view, with its Redis, serving). For every replica of the run:
 * <ul>
 *   <li>it must answer UP within {@link #BOUND_MS} of the heal ("late", or "never" if no probe did);</li>
 *   <li>once UP, every later probe must answer UP too: a probe that did not is a gap (the replica left
 *       service again, e.g. a snapshot attempt, a rejoin, a Redis timeout); each gap is reported with
 *       how long it lasted between the probes that saw it;</li>
 *   <li>a replica never probed is a failure of the check.</li>
 * </ul>
 * Every mode promises a whole, serving group once the faults stop (docs/replication.md: "after the
 * faults stop and 30 s of quiet"), so each finding is a violation. A history without samples (written
 * before they were taken) is not measured. What it cannot see: a gap shorter than the probe interval,
 * and anything after the state was read.
 */
final class LivenessChecker implements Checker {
    /** How long after the heal every replica must serve: twice the default quiet period. */
    static final long BOUND_MS = 60_000;

    @Override
    public CheckResult check(RunRecord run) {
        Map<String, Long> figures = new LinkedHashMap<>();
        List<Finding> findings = new ArrayList<>();
        RunRecord.Serving serving = run.serving();
        if (serving == null) {
            return new CheckResult(Check.LIVENESS, findings, figures, "no serving samples in the history: not measured");
        }
        Attribution attribution = new Attribution(run.faults());
        int lastFault = attribution.around(serving.healedMs());
        long worstFirstUp = 0;
        long gaps = 0;
        long late = 0;
        List<String> replicas = run.info().replicas().isEmpty()
                ? run.states().stream().map(ReplicaState::replica).toList()
                : run.info().replicas();
        for (String replica : replicas) {
            List<RunRecord.Sample> mine = serving.samples().stream()
                    .filter(s -> s.replica().equals(replica) && s.atMs() >= serving.healedMs()).toList();
            if (mine.isEmpty()) {
                findings.add(new Finding(Check.LIVENESS, lastFault, replica, "never probed after the heal", true, -1));
                late++;
                continue;
            }
            RunRecord.Sample firstUp = mine.stream().filter(RunRecord.Sample::serving).findFirst().orElse(null);
            if (firstUp == null) {
                late++;
                RunRecord.Sample last = mine.get(mine.size() - 1);
                findings.add(new Finding(Check.LIVENESS, lastFault, replica, "never served in " + (last.atMs() - serving.healedMs())
                        + " ms after the heal (" + mine.size() + " probes; last: " + last.detail() + ")", true, -1));
                continue;
            }
            long toServe = firstUp.atMs() - serving.healedMs();
            worstFirstUp = Math.max(worstFirstUp, toServe);
            if (toServe > BOUND_MS) {
                late++;
                findings.add(new Finding(Check.LIVENESS, lastFault, replica, "served " + toServe + " ms after the heal, beyond "
                        + BOUND_MS + " ms", true, toServe));
            }
            RunRecord.Sample gapStart = null;
            RunRecord.Sample previous = firstUp;
            for (RunRecord.Sample s : mine.subList(mine.indexOf(firstUp), mine.size())) {
                if (!s.serving() && gapStart == null) {
                    gapStart = s;
                } else if (s.serving() && gapStart != null) {
                    gaps++;
                    findings.add(gap(lastFault, replica, previous, gapStart, s));
                    gapStart = null;
                }
                if (s.serving()) {
                    previous = s;
                }
            }
            if (gapStart != null) {
                gaps++;
                findings.add(gap(lastFault, replica, previous, gapStart, null));
            }
        }
        figures.put("replicas", (long) replicas.size());
        figures.put("samples", (long) serving.samples().size());
        figures.put("maxMsToServe", worstFirstUp);
        figures.put("late", late);
        figures.put("gaps", gaps);
        return new CheckResult(Check.LIVENESS, findings, figures, "");
    }

    private static Finding gap(int fault, String replica, RunRecord.Sample lastUp, RunRecord.Sample firstDown, RunRecord.Sample upAgain) {
        long lasted = upAgain == null ? -1 : upAgain.atMs() - lastUp.atMs();
        return new Finding(Check.LIVENESS, fault, replica, "out of service again at " + firstDown.atMs() + " ms (" + firstDown.detail()
                + ")" + (upAgain == null ? ", still at the last probe" : ", serving again at " + upAgain.atMs() + " ms"), true, lasted);
    }
}
