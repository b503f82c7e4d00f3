package eu.vpki.faults;

import eu.vpki.common.fleet.EcRecord;
import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.replication.RedisStateMachine.KeyContent;
import eu.vpki.common.replication.StoredRecord;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Check 6: exactly one ACTIVE EC per station on every replica after the quiet period. An EC record
 * ({@code fleet:ec:<id>}, {@link EcRecord}: station, status ACTIVE or SUPERSEDED) is written by the
 * command that issues it, and that same command marks the station's previous EC SUPERSEDED and points
 * the station's latest-EC pointer ({@code fleet:station-ec:<station>}) at it (docs/ea.md, step 8;
 * {@code FleetCommands.enrolled}). So on every replica each station that holds an EC record holds
 * exactly one ACTIVE one, and its pointer names it. Found, per replica and station:
 * <ul>
 *   <li>two or more ACTIVE ECs (a supersession lost, or two issuances that each superseded the same
 *       EC: e.g. a replica whose clock runs ahead, docs/reliability.md, "Known failures");</li>
 *   <li>no ACTIVE EC although the station holds EC records (the latest EC lost, its supersession kept);</li>
 *   <li>a pointer that names no ACTIVE EC of the station, or none while one is ACTIVE.</li>
 * </ul>
 * Every mode promises it (the harness's reading of docs/ea.md: one command issues, points and
 * supersedes), so each finding is a violation. A replica that could not be read fails the check.
 * What it cannot see: an EC lost on every replica together with its supersession (the station then
 * holds one ACTIVE EC, an older one; {@link LostWritesChecker} finds that loss), and stations with no
 * EC record at all.
 */
final class ActiveEcChecker implements Checker {
    @Override
    public CheckResult check(RunRecord run) {
        Attribution attribution = new Attribution(run.faults());
        Writes writes = new Writes(run.ops());
        List<Finding> findings = new ArrayList<>();
        long stations = 0;
        long multiple = 0;
        long none = 0;
        long pointer = 0;
        for (ReplicaState state : run.states()) {
            if (!state.readable()) {
                findings.add(new Finding(Check.ONE_ACTIVE_EC, -1, "replica " + state.replica(),
                        "could not be read (" + state.error() + "): its ECs cannot be checked", true, -1));
                continue;
            }
            Map<String, TreeSet<String>> active = new TreeMap<>();
            for (KeyContent c : state.contents().values()) {
                if (!c.key().startsWith(FleetKeys.EC) || c.kind() != KeyContent.Kind.HASH) {
                    continue;
                }
                Optional<StoredRecord> record = StoredRecord.from(c.hash()).filter(r -> !r.deleted());
                if (record.isEmpty() || record.get().fields().get("station") == null) {
                    continue;
                }
                TreeSet<String> ecs = active.computeIfAbsent(record.get().fields().get("station"), s -> new TreeSet<>());
                if (EcRecord.Status.ACTIVE.name().equals(record.get().fields().get("status"))) {
                    ecs.add(c.key().substring(FleetKeys.EC.length()));
                }
            }
            stations = Math.max(stations, active.size());
            for (Map.Entry<String, TreeSet<String>> e : active.entrySet()) {
                String station = e.getKey();
                String named = Writes.record(state, FleetKeys.stationEc(station)).map(r -> r.fields().get("ec")).orElse(null);
                int fault = attribution.affecting(writes.of(station).stream().filter(o -> o.type().enrolment())
                        .mapToLong(Op::completedMs).max().orElse(0));
                String subject = state.replica() + " / " + station;
                if (e.getValue().size() != 1) {
                    if (e.getValue().isEmpty()) {
                        none++;
                    } else {
                        multiple++;
                    }
                    findings.add(new Finding(Check.ONE_ACTIVE_EC, fault, subject, e.getValue().size() + " ACTIVE ECs "
                            + e.getValue() + "; the latest-EC pointer names " + (named == null ? "none" : named), true, -1));
                } else if (!e.getValue().first().equals(named)) {
                    pointer++;
                    findings.add(new Finding(Check.ONE_ACTIVE_EC, fault, subject, "the ACTIVE EC is " + e.getValue().first()
                            + " but the latest-EC pointer names " + (named == null ? "none" : named), true, -1));
                }
            }
        }
        Map<String, Long> figures = new LinkedHashMap<>();
        figures.put("stationsWithEcs", stations);
        figures.put("multipleActive", multiple);
        figures.put("noActive", none);
        figures.put("pointerMismatch", pointer);
        figures.put("unreadableReplicas", run.states().stream().filter(s -> !s.readable()).count());
        return new CheckResult(Check.ONE_ACTIVE_EC, findings, figures, stations == 0 ? "no EC stored: not measured" : "");
    }
}
