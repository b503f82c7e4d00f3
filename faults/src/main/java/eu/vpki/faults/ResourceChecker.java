package eu.vpki.faults;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Check 9: resources through the run. Every replica's heap (used and maximum, from its actuator), its
 * Redis's {@code used_memory} and the entries of its command log are sampled every few seconds from
 * the start of the workload until the read, and once more just before the read. Reported: the peaks
 * per run (heap, Redis memory, command-log entries) and the command log at the read. Violations:
 * <ul>
 *   <li><b>heap</b>: a sample at or above {@link #HEAP_SHARE_BOUND} of the heap's maximum (the replica is
 *       about to fail with OutOfMemoryError, or spends its time collecting);</li>
 *   <li><b>command log</b>: entries left in a replica's command log at the read when the quiet period was at
 *       least {@link #TRIM_QUIET_MS}. The logs are trimmed once every expected member applied a command
 *       (docs/replication.md; {@code AntiEntropy}: what every member had applied 20 status intervals
 *       before, checked every 10, 10 s and 5 s with the default 500 ms interval), and nothing is written
 *       while the harness is quiet, so after that long every log must be empty: one that is not holds a
 *       backlog that nobody trims (a member missing for good, a trim that stalled). A shorter quiet period
 *       is not judged.</li>
 * </ul>
 * Redis memory has no bound here: it grows with the state by design; its peak is reported (issue 34
 * measured about 1 KB per registered station and 2.1 KB once enrolled). What it cannot see: a peak
 * between two samples, and a replica whose metrics or Redis did not answer at a sample (counted apart).
 */
final class ResourceChecker implements Checker {
    /** Heap in use at or above this share of the maximum is a violation. */
    static final double HEAP_SHARE_BOUND = 0.95;
    /** The shortest quiet period after which every command log must have been trimmed empty. */
    static final long TRIM_QUIET_MS = 30_000;

    @Override
    public CheckResult check(RunRecord run) {
        Map<String, Long> figures = new LinkedHashMap<>();
        List<Finding> findings = new ArrayList<>();
        if (run.resources().isEmpty()) {
            return new CheckResult(Check.RESOURCES, findings, figures, "no resource samples in the history: not measured");
        }
        Attribution attribution = new Attribution(run.faults());
        long peakHeap = 0;
        long peakRedis = 0;
        long peakLog = 0;
        long unanswered = 0;
        Map<String, RunRecord.Resources> last = new LinkedHashMap<>();
        Map<String, Boolean> heapReported = new LinkedHashMap<>();
        for (RunRecord.Resources r : run.resources()) {
            if (r.heapUsed() < 0 || r.redisUsed() < 0 || r.logEntries() < 0) {
                unanswered++;
            }
            peakHeap = Math.max(peakHeap, r.heapUsed());
            peakRedis = Math.max(peakRedis, r.redisUsed());
            peakLog = Math.max(peakLog, r.logEntries());
            last.merge(r.replica(), r, (a, b) -> b.atMs() >= a.atMs() ? b : a);
            if (r.heapUsed() >= 0 && r.heapMax() > 0 && r.heapUsed() >= HEAP_SHARE_BOUND * r.heapMax()
                    && heapReported.putIfAbsent(r.replica(), true) == null) {
                findings.add(new Finding(Check.RESOURCES, attribution.around(r.atMs()), r.replica() + " heap",
                        String.format(java.util.Locale.ROOT, "heap %d of %d MB (%.0f %%) at %d ms: at or above %.0f %% of the maximum",
                                r.heapUsed() >> 20, r.heapMax() >> 20, 100.0 * r.heapUsed() / r.heapMax(), r.atMs(),
                                100 * HEAP_SHARE_BOUND),
                        true, r.atMs()));
            }
        }
        long finalLog = 0;
        boolean judgeLogs = run.info().quietMs() >= TRIM_QUIET_MS;
        for (RunRecord.Resources r : last.values()) {
            finalLog = Math.max(finalLog, r.logEntries());
            if (judgeLogs && r.logEntries() > 0) {
                findings.add(new Finding(Check.RESOURCES, -1, r.replica() + " command log", r.logEntries()
                        + " entries left at the read, after " + run.info().quietMs() / 1000 + " s of quiet: not trimmed", true, -1));
            } else if (judgeLogs && r.logEntries() < 0) {
                findings.add(new Finding(Check.RESOURCES, -1, r.replica() + " command log",
                        "could not be read at the read: its trimming cannot be shown", true, -1));
            }
        }
        figures.put("samples", (long) run.resources().size());
        figures.put("unanswered", unanswered);
        figures.put("peakHeapMb", peakHeap >> 20);
        figures.put("peakRedisMb", peakRedis >> 20);
        figures.put("peakLogEntries", peakLog);
        figures.put("finalLogEntries", finalLog);
        return new CheckResult(Check.RESOURCES, findings, figures, judgeLogs
                ? ""
                : "quiet period under " + TRIM_QUIET_MS / 1000 + " s: command-log trimming not judged");
    }
}
