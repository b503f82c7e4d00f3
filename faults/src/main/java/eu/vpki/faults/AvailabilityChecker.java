package eu.vpki.faults;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Check 10: availability, the share of operations acknowledged during each fault (from its first
 * action to the group's recovery) and outside any fault. Operations refused as a decision about the
 * request (a revoked station, an illegal status change) are left out; what counts against
 * availability is no answer, a 503, an EA the AA could not reach, an enrolment refused because
 * replication failed. No mode promises availability under faults, so nothing here is a violation;
 * figures are {@code <kind>.ops} and {@code <kind>.acknowledged} for each fault kind and {@code none}.
 */
final class AvailabilityChecker implements Checker {
    static final String NONE = "none";

    @Override
    public CheckResult check(RunRecord run) {
        Attribution attribution = new Attribution(run.faults());
        Map<Integer, FaultKind> kinds = new LinkedHashMap<>();
        run.faults().forEach(f -> kinds.put(f.index(), f.kind()));
        Map<FaultKind, long[]> byKind = new EnumMap<>(FaultKind.class);
        long[] none = new long[2];
        for (Op op : run.ops()) {
            if (!op.acknowledged() && !op.unavailable()) {
                continue;
            }
            int fault = attribution.during(op.invokedMs());
            long[] counts = fault < 0 ? none : byKind.computeIfAbsent(kinds.get(fault), k -> new long[2]);
            counts[0]++;
            if (op.acknowledged()) {
                counts[1]++;
            }
        }
        Map<String, Long> figures = new LinkedHashMap<>();
        byKind.forEach((kind, c) -> {
            figures.put(kind.label() + ".ops", c[0]);
            figures.put(kind.label() + ".acknowledged", c[1]);
        });
        figures.put(NONE + ".ops", none[0]);
        figures.put(NONE + ".acknowledged", none[1]);
        List<Finding> findings = new ArrayList<>();
        return new CheckResult(Check.AVAILABILITY, findings, figures, "");
    }

    /** Acknowledged share in percent, -1 if no operation counted. */
    static double percent(CheckResult r, String kind) {
        long ops = r.figure(kind + ".ops");
        return ops == 0 ? -1 : 100.0 * r.figure(kind + ".acknowledged") / ops;
    }
}
