package eu.vpki.faults;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The judgement of one or more runs: for each run, every check's result; for each mode, one row per
 * fault kind (plus "none" for what happened outside any fault and "all"), and each promise next to
 * what was measured. Runs of the same mode (e.g. subsets of the schedule run in separate holds) are
 * added up into the mode's rows.
 */
public final class FaultReport {
    /** Every check, in report order. */
    static final List<Checker> CHECKERS = List.of(new LostWritesChecker(), new DivergenceChecker(), new ReadYourWritesChecker(),
            new StaleValidationChecker(), new MinorityWritesChecker(), new ActiveEcChecker(), new SequenceChecker(), new LivenessChecker(),
            new ResourceChecker(), new AvailabilityChecker());

    /** A promise's verdict. */
    public enum Verdict { KEPT, VIOLATED, NOT_MEASURED, NO_PROMISE }

    /**
     * How many faults of one kind a run injected, skipped (impossible here or out of time) and saw
     * unrecovered, and how long the injected ones lasted in all (first action to recovery).
     */
    public record FaultCount(int injected, int skipped, int unrecovered, long totalMs) {
    }

    /** One run judged. */
    public record RunResult(RunRecord.Info info, String history, int ops, Map<FaultKind, FaultCount> faults,
                            Map<Check, CheckResult> results) {
        public String mode() {
            return info.mode();
        }

        int count(java.util.function.ToIntFunction<FaultCount> which) {
            return faults.values().stream().mapToInt(which).sum();
        }
    }

    /**
     * One row of the table: one mode and one fault kind ("none": outside any fault; "all": the whole
     * runs). {@code stale} counts every stale validation, {@code staleOnLostRevocation} those on
     * stations whose revocation was lost (valid for good); {@code maxStalenessMs} covers the others;
     * {@code activeEcViolations} station/replica pairs without exactly one ACTIVE EC, {@code livenessViolations}
     * replicas late or out of service after the heal, {@code unreadableReplicas} replicas whose state could
     * not be read (put down to no fault: they count in the "none" and "all" rows), {@code resourceViolations} heaps
     * near their maximum or command logs left untrimmed; {@code peakHeapMb} and {@code peakLogEntries} are the runs'
     * peaks, in the "all" row only (0 elsewhere).
     */
    public record Row(String mode, String fault, int injected, int skipped, int unrecovered, long meanFaultMs, long ops,
                      double availability,
                      long lost, long lostAllowed, long divergentKeys, long rywViolations, long stale, long staleViolations,
                      long staleOnLostRevocation, long maxStalenessMs, long minorityAcks, long sequenceViolations,
                      long activeEcViolations, long livenessViolations, long unreadableReplicas, long resourceViolations,
                      long peakHeapMb, long peakLogEntries) {
    }

    /** A promise of one mode next to what was measured. */
    public record Promise(String mode, Check check, String promised, String measured, Verdict verdict) {
    }

    private final List<RunResult> runs;
    private final List<Row> rows;
    private final List<Promise> promises;

    private FaultReport(List<RunResult> runs) {
        this.runs = List.copyOf(runs);
        this.rows = rows(runs);
        this.promises = promises(runs);
    }

    /** Runs every check on every run. {@code histories} names the history file of each run (same order). */
    public static FaultReport judge(List<RunRecord> records, List<String> histories) {
        List<RunResult> runs = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            RunRecord r = records.get(i);
            Map<Check, CheckResult> results = new EnumMap<>(Check.class);
            for (Checker c : CHECKERS) {
                CheckResult result = c.check(r);
                results.put(result.check(), result);
            }
            Map<FaultKind, FaultCount> counts = new EnumMap<>(FaultKind.class);
            for (FaultKind kind : FaultKind.values()) {
                List<FaultEvent> of = r.faults().stream().filter(f -> f.kind() == kind).toList();
                int injected = (int) of.stream().filter(Attribution::injected).count();
                int unrecovered = (int) of.stream().filter(f -> Attribution.injected(f) && !f.recovered()).count();
                long total = of.stream().filter(Attribution::injected).mapToLong(f -> f.endMs() - f.startMs()).sum();
                if (!of.isEmpty()) {
                    counts.put(kind, new FaultCount(injected, of.size() - injected, unrecovered, total));
                }
            }
            runs.add(new RunResult(r.info(), histories.get(i), r.ops().size(), counts, results));
        }
        return new FaultReport(runs);
    }

    public List<RunResult> runs() {
        return runs;
    }

    public List<Row> rows() {
        return rows;
    }

    public List<Promise> promises() {
        return promises;
    }

    /** Whether any promise was violated in any run. */
    public boolean violated() {
        return promises.stream().anyMatch(p -> p.verdict() == Verdict.VIOLATED);
    }

    private static Map<String, List<RunResult>> byMode(List<RunResult> runs) {
        Map<String, List<RunResult>> modes = new LinkedHashMap<>();
        runs.forEach(r -> modes.computeIfAbsent(r.mode(), m -> new ArrayList<>()).add(r));
        return modes;
    }

    private static List<Row> rows(List<RunResult> runs) {
        List<Row> rows = new ArrayList<>();
        byMode(runs).forEach((mode, list) -> {
            List<String> faults = new ArrayList<>();
            for (FaultKind k : FaultKind.values()) {
                faults.add(k.label());
            }
            faults.add(AvailabilityChecker.NONE);
            faults.add("all");
            for (String fault : faults) {
                Row row = row(mode, fault, list);
                if (row.injected() + row.skipped() > 0 || fault.equals(AvailabilityChecker.NONE) || fault.equals("all")) {
                    rows.add(row);
                }
            }
        });
        return rows;
    }

    private static Row row(String mode, String fault, List<RunResult> runs) {
        int injected = 0;
        int skipped = 0;
        int unrecovered = 0;
        long faultMs = 0;
        long ops = 0;
        long acknowledged = 0;
        long lost = 0;
        long lostAllowed = 0;
        long divergent = 0;
        long ryw = 0;
        long stale = 0;
        long staleViolations = 0;
        long staleOnLost = 0;
        long maxStale = 0;
        long minority = 0;
        long sequence = 0;
        long activeEc = 0;
        long liveness = 0;
        long unreadable = 0;
        long resources = 0;
        long peakHeap = 0;
        long peakLog = 0;
        boolean all = fault.equals("all");
        for (RunResult run : runs) {
            Map<Integer, FaultKind> kinds = new TreeMap<>();
            for (FaultPlan p : run.info().schedule()) {
                kinds.put(p.index(), p.kind());
            }
            java.util.function.Predicate<Finding> mine = f -> all || (f.faultIndex() < 0
                    ? fault.equals(AvailabilityChecker.NONE)
                    : kinds.get(f.faultIndex()) != null && kinds.get(f.faultIndex()).label().equals(fault));
            CheckResult availability = run.results().get(Check.AVAILABILITY);
            if (all) {
                for (String k : availabilityKinds()) {
                    ops += availability.figure(k + ".ops");
                    acknowledged += availability.figure(k + ".acknowledged");
                }
                injected += run.count(FaultCount::injected);
                skipped += run.count(FaultCount::skipped);
                unrecovered += run.count(FaultCount::unrecovered);
                faultMs += run.faults().values().stream().mapToLong(FaultCount::totalMs).sum();
            } else {
                ops += availability.figure(fault + ".ops");
                acknowledged += availability.figure(fault + ".acknowledged");
                if (!fault.equals(AvailabilityChecker.NONE)) {
                    FaultCount c = run.faults().get(FaultKind.parse(fault));
                    if (c != null) {
                        injected += c.injected();
                        skipped += c.skipped();
                        unrecovered += c.unrecovered();
                        faultMs += c.totalMs();
                    }
                }
            }
            for (Finding f : run.results().get(Check.LOST_WRITES).findings()) {
                if (mine.test(f) && !LostWritesChecker.unreadable(f)) {
                    lost++;
                    if (!f.violation()) {
                        lostAllowed++;
                    }
                }
            }
            divergent += run.results().get(Check.DIVERGENCE).findings().stream()
                    .filter(f -> eu.vpki.common.fleet.FleetKeys.KEYSPACE.isManaged(f.subject()) && mine.test(f)).count();
            ryw += run.results().get(Check.READ_YOUR_WRITES).findings().stream().filter(mine).count();
            for (Finding f : run.results().get(Check.STALE_VALIDATIONS).findings()) {
                if (mine.test(f)) {
                    stale++;
                    if (StaleValidationChecker.onLostRevocation(f)) {
                        staleOnLost++;
                    } else {
                        maxStale = Math.max(maxStale, f.valueMs());
                    }
                    if (f.violation()) {
                        staleViolations++;
                    }
                }
            }
            minority += run.results().get(Check.MINORITY_WRITES).findings().stream().filter(mine).count();
            sequence += run.results().get(Check.SEQUENCE).findings().stream().filter(f -> f.violation() && mine.test(f)).count();
            activeEc += run.results().get(Check.ONE_ACTIVE_EC).findings().stream().filter(f -> f.violation() && mine.test(f)).count();
            liveness += run.results().get(Check.LIVENESS).findings().stream().filter(f -> f.violation() && mine.test(f)).count();
            unreadable += run.results().get(Check.LOST_WRITES).findings().stream()
                    .filter(f -> LostWritesChecker.unreadable(f) && mine.test(f)).count();
            resources += run.results().get(Check.RESOURCES).findings().stream().filter(f -> f.violation() && mine.test(f)).count();
            if (all) {
                peakHeap = Math.max(peakHeap, run.results().get(Check.RESOURCES).figure("peakHeapMb"));
                peakLog = Math.max(peakLog, run.results().get(Check.RESOURCES).figure("peakLogEntries"));
            }
        }
        double availability = ops == 0 ? -1 : 100.0 * acknowledged / ops;
        return new Row(mode, fault, injected, skipped, unrecovered, injected == 0 ? 0 : faultMs / injected, ops, availability, lost,
                lostAllowed, divergent, ryw, stale,
                staleViolations, staleOnLost, maxStale, minority, sequence, activeEc, liveness, unreadable, resources, peakHeap, peakLog);
    }

    private static List<String> availabilityKinds() {
        List<String> kinds = new ArrayList<>();
        for (FaultKind k : FaultKind.values()) {
            kinds.add(k.label());
        }
        kinds.add(AvailabilityChecker.NONE);
        return kinds;
    }

    private static List<Promise> promises(List<RunResult> runs) {
        List<Promise> out = new ArrayList<>();
        byMode(runs).forEach((mode, list) -> {
            boolean sync = list.get(0).info().sync();
            for (Check check : Check.values()) {
                String promised = Promises.of(check, sync);
                long violations = 0;
                List<String> measured = new ArrayList<>();
                boolean measuredAtAll = false;
                for (RunResult run : list) {
                    CheckResult r = run.results().get(check);
                    violations += r.violations();
                    measured.add(summary(r));
                    measuredAtAll |= !r.note().contains("not measured");
                }
                Verdict verdict = promised == null
                        ? Verdict.NO_PROMISE
                        : !measuredAtAll
                                ? Verdict.NOT_MEASURED
                                : violations > 0 ? Verdict.VIOLATED : Verdict.KEPT;
                out.add(new Promise(mode, check, promised == null ? "(no promise under faults)" : promised, String.join(" | ", measured),
                        verdict));
            }
        });
        return out;
    }

    /** One line of what a check measured in one run. */
    static String summary(CheckResult r) {
        String text = switch (r.check()) {
            case LOST_WRITES -> r.figure("lost") + " of " + r.figure("acknowledgedWrites") + " acknowledged writes lost ("
                    + r.figure("lostEverywhere") + " on every replica; " + r.figure("lostWithOriginCrash")
                    + " died with their origin, ASYNC); unreadable replicas: " + r.figure("unreadableReplicas")
                    + "; refused enrolments stored anyway: "
                    + r.figure("refusedEnrolmentsStored");
            case DIVERGENCE -> r.figure("differingKeys") + " of " + r.figure("keys") + " keys differ, " + r.figure("distinctDigests")
                    + " distinct digests over " + r.figure("replicasRead") + " replicas"
                    + (r.figure("appliedTableDiffers") > 0 ? ", applied tables differ" : "")
                    + (r.figure("unreadableReplicas") > 0 ? ", " + r.figure("unreadableReplicas") + " replicas unreadable" : "");
            case READ_YOUR_WRITES -> r.violations() + " violations in " + r.figure("judged") + " reads judged ("
                    + r.figure("notYetApplied") + " answered 503 not-yet-applied)";
            case STALE_VALIDATIONS -> r.figure("stale") + " stale of " + r.figure("requestsAfterRevocation")
                    + " requests after a revocation (" + r.violations() + " beyond the promise; " + r.figure("staleOnLostRevocation")
                    + " on stations whose revocation was lost); others: max " + r.figure("maxStalenessMs")
                    + " ms, median " + r.figure("medianStalenessMs") + " ms";
            case MINORITY_WRITES -> r.figure("minorityAcknowledged") + " acknowledged on the minority side in " + r.figure("partitions")
                    + " partitions (" + r.figure("afterFailureDetection") + " after failure detection)";
            case ONE_ACTIVE_EC -> r.figure("multipleActive") + " station/replica pairs with several ACTIVE ECs, " + r.figure("noActive")
                    + " with none, " + r.figure("pointerMismatch") + " whose pointer names another EC (" + r.figure("stationsWithEcs")
                    + " stations with ECs)";
            case SEQUENCE -> r.figure("reused") + " tokens reused, " + r.figure("skipped") + " skipped commands, " + r.figure("behind")
                    + " replica/origin pairs behind (" + r.figure("tokens") + " tokens)";
            case LIVENESS -> r.figure("late") + " of " + r.figure("replicas") + " replicas late or never serving, " + r.figure("gaps")
                    + " gaps; slowest to serve after the heal " + r.figure("maxMsToServe") + " ms (" + r.figure("samples") + " probes)";
            case RESOURCES -> "peak heap " + r.figure("peakHeapMb") + " MB, peak Redis memory " + r.figure("peakRedisMb")
                    + " MB, peak command log " + r.figure("peakLogEntries") + " entries, " + r.figure("finalLogEntries") + " at the read ("
                    + r.figure("samples") + " samples, " + r.figure("unanswered") + " incomplete)";
            case AVAILABILITY -> {
                long ops = 0;
                long ok = 0;
                for (String k : availabilityKinds()) {
                    ops += r.figure(k + ".ops");
                    ok += r.figure(k + ".acknowledged");
                }
                yield String.format(java.util.Locale.ROOT, "%.1f %% of %d operations acknowledged", ops == 0 ? 0.0 : 100.0 * ok / ops, ops);
            }
        };
        return r.note().isEmpty() ? text : text + " [" + r.note() + "]";
    }
}
