package eu.vpki.faults;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Check 3: read-your-writes. After each acknowledged Operator change the workload reads the station
 * at another Operator replica, presenting the change's token ({@code X-Vpki-Version}). The replica
 * must either answer with the state that change wrote or refuse with 503 "version not yet applied"
 * (the protocol's "retry"); answering with older state is a violation in every mode. Reads of a
 * station that another write touched meanwhile are not judged (the workload does not make them).
 */
final class ReadYourWritesChecker implements Checker {
    @Override
    public CheckResult check(RunRecord run) {
        Writes writes = new Writes(run.ops());
        Attribution attribution = new Attribution(run.faults());
        List<Finding> findings = new ArrayList<>();
        long reads = 0;
        long answered = 0;
        long notYetApplied = 0;
        long judged = 0;
        for (Op read : run.ops()) {
            if (read.type() != Op.Type.READ) {
                continue;
            }
            reads++;
            if (read.code().equals("operator:version-not-yet-applied")) {
                notYetApplied++;
            }
            if (!read.acknowledged() || read.detail("readOf") == null) {
                continue;
            }
            answered++;
            Optional<Op> write = writes.op(Long.parseLong(read.detail("readOf")));
            if (write.isEmpty() || touchedMeanwhile(writes, write.get(), read)) {
                continue;
            }
            judged++;
            Writes.StationValue expected = Writes.value(write.get());
            Writes.StationValue seen = Writes.value(read);
            if (!expected.equals(seen)) {
                findings.add(new Finding(Check.READ_YOUR_WRITES, attribution.around(read.invokedMs()),
                        "op " + read.id() + " READ " + read.station() + " at " + read.target(),
                        "token " + write.get().token() + " of op " + write.get().id() + " (" + write.get().type() + " via "
                                + write.get().target() + ") wrote " + expected + "; read answered " + seen,
                        true, -1));
            }
        }
        Map<String, Long> figures = new LinkedHashMap<>();
        figures.put("reads", reads);
        figures.put("answered", answered);
        figures.put("judged", judged);
        figures.put("notYetApplied", notYetApplied);
        return new CheckResult(Check.READ_YOUR_WRITES, findings, figures, "");
    }

    /** Whether another Operator write of the station overlaps the span from the write's invocation to the read's answer. */
    private static boolean touchedMeanwhile(Writes writes, Op write, Op read) {
        return writes.of(write.station()).stream().anyMatch(o -> o != write && o.type().operatorWrite()
                && o.completedMs() >= write.invokedMs() && o.invokedMs() <= read.completedMs());
    }
}
