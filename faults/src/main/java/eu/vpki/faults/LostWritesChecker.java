package eu.vpki.faults;

import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.common.replication.RedisStateMachine.KeyContent;
import eu.vpki.common.replication.StoredRecord;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Check 1: acknowledged writes lost. On every replica, after the quiet period:
 * <ul>
 *   <li>an acknowledged registration: the station's record and its membership in the operator's fleet;</li>
 *   <li>an acknowledged revocation: the station REVOKED (final, whatever else was written);</li>
 *   <li>otherwise the station's status and permissions: those of its last acknowledged write, or of
 *       a write that may have applied (no clear answer) or ran concurrently with it; a revocation that
 *       may have applied and raced with a permission change may have read the record with that change
 *       in it (the Operator revokes the record as it reads it): REVOKED with either write's permissions;</li>
 *   <li>an acknowledged EC: its record, SUPERSEDED once a later enrolment of the station was
 *       acknowledged, and the station's latest-EC pointer naming the last acknowledged EC (or one
 *       issued later whose answer was lost).</li>
 * </ul>
 * A write missing or overwritten on any replica counts once, with the replicas where it is lost.
 * In ASYNC propagation a loss is expected (docs/replication.md) when the write's origin crashed
 * before its multicast got out: a lost write whose origin was killed (JVM or redis-server) within
 * {@link #ASYNC_CRASH_WINDOW_MS} after acknowledging it is reported, with the milliseconds before
 * the crash, but not as a violation. Also counted, not as violations: refused enrolments whose EC
 * was stored anyway.
 */
final class LostWritesChecker implements Checker {
    static final long ASYNC_CRASH_WINDOW_MS = 1_000;
    private static final HexFormat HEX = HexFormat.of();

    /** One acknowledged write missing or overwritten on some replicas. */
    record Loss(Op write, String what, String expected, Map<String, String> found) {
    }

    @Override
    public CheckResult check(RunRecord run) {
        List<Loss> losses = losses(run);
        Attribution attribution = new Attribution(run.faults());
        List<Finding> findings = new ArrayList<>();
        long excused = 0;
        for (Loss loss : losses) {
            long beforeCrash = run.info().sync() ? -1 : msBeforeOriginCrash(run, loss.write());
            boolean expected = beforeCrash >= 0 && beforeCrash <= ASYNC_CRASH_WINDOW_MS;
            if (expected) {
                excused++;
            }
            Op w = loss.write();
            findings.add(new Finding(Check.LOST_WRITES, attribute(attribution, w),
                    "op " + w.id() + " " + w.type() + " " + w.station() + " via " + w.target(),
                    loss.what() + ": expected " + loss.expected() + "; found " + loss.found()
                            + (beforeCrash >= 0 ? "; origin crashed " + beforeCrash + " ms after the ack" : "")
                            + (expected ? " (ASYNC: allowed)" : ""),
                    !expected, beforeCrash));
        }
        Map<String, Long> figures = new LinkedHashMap<>();
        figures.put("acknowledgedWrites", run.ops().stream().filter(o -> o.type().write() && o.acknowledged()).count());
        figures.put("lost", (long) losses.size());
        figures.put("lostEverywhere", losses.stream().filter(l -> l.found().size() == readable(run)).count());
        figures.put("lostWithOriginCrash", excused);
        figures.put("refusedEnrolmentsStored", refusedButStored(run));
        String note = run.states().stream().anyMatch(s -> !s.readable()) ? "some replicas could not be read" : "";
        return new CheckResult(Check.LOST_WRITES, findings, figures, note);
    }

    /**
     * The fault active when the write was acknowledged; for a write of a race (a revocation and
     * another change sent at once) outside any fault, none: the race alone can undo it; otherwise the
     * next fault, the first thing that could have undone it.
     */
    static int attribute(Attribution attribution, Op write) {
        int active = attribution.during(write.completedMs());
        if (active >= 0 || write.detail("race") != null && attribution.during(write.invokedMs()) < 0) {
            return active;
        }
        return attribution.affecting(write.completedMs());
    }

    private static long readable(RunRecord run) {
        return run.states().stream().filter(ReplicaState::readable).count();
    }

    /** Every acknowledged write lost on at least one readable replica. */
    static List<Loss> losses(RunRecord run) {
        Writes writes = new Writes(run.ops());
        String operatorId = run.info().settings().getOrDefault("operatorId", "");
        Map<String, Loss> out = new LinkedHashMap<>();
        for (ReplicaState state : run.states()) {
            if (!state.readable()) {
                continue;
            }
            for (Map.Entry<String, List<Op>> e : writes.byStation().entrySet()) {
                checkStation(state, e.getKey(), e.getValue(), operatorId, out);
                checkEcs(state, e.getKey(), e.getValue(), out);
            }
        }
        return List.copyOf(out.values());
    }

    private static void lost(Map<String, Loss> out, Op write, String what, String expected, String replica, String found) {
        String key = write.id() + "/" + what;
        Loss loss = out.computeIfAbsent(key, k -> new Loss(write, what, expected, new TreeMap<>()));
        loss.found().put(replica, found);
    }

    private static void checkStation(ReplicaState state, String station, List<Op> ops, String operatorId, Map<String, Loss> out) {
        List<Op> acked = ops.stream().filter(o -> o.type().operatorWrite() && o.acknowledged()).toList();
        if (acked.isEmpty()) {
            return;
        }
        Optional<Writes.StationValue> actual = Writes.stationValue(state, station);
        Optional<Op> registration = acked.stream().filter(o -> o.type() == Op.Type.REGISTER).findFirst();
        if (registration.isPresent()) {
            if (actual.isEmpty()) {
                lost(out, registration.get(), "registration lost", "station record", state.replica(), "no record");
                return;
            }
            if (!operatorId.isEmpty() && !state.members(FleetKeys.operator(operatorId)).contains(station)) {
                lost(out, registration.get(), "fleet membership lost", "in " + FleetKeys.operator(operatorId), state.replica(),
                        "not a member");
            }
        }
        if (actual.isEmpty()) {
            lost(out, acked.get(acked.size() - 1), "station record lost", Writes.value(acked.get(acked.size() - 1)).toString(),
                    state.replica(), "no record");
            return;
        }
        Optional<Op> revocation = acked.stream().filter(o -> o.type() == Op.Type.REVOKE).findFirst();
        if (revocation.isPresent()) {
            if (!actual.get().status().equals(StationStatus.REVOKED.name())) {
                lost(out, revocation.get(), "revocation undone", StationStatus.REVOKED.name(), state.replica(), actual.get().toString());
            }
            return;
        }
        Op last = acked.get(acked.size() - 1);
        List<Writes.StationValue> allowed = new ArrayList<>();
        allowed.add(Writes.value(last));
        for (Op o : ops) {
            if (o != last && o.type().operatorWrite() && o.completedMs() >= last.invokedMs()
                    && (o.mayHaveApplied() || o.acknowledged() && Writes.concurrent(o, last))) {
                allowed.add(Writes.value(o));
                if (o.type() == Op.Type.REVOKE && o.detail("race") != null) {
                    // the Operator revokes the record as it reads it: the other write of the race may already be in it
                    for (Op other : ops) {
                        if (o.detail("race").equals(other.detail("race"))) {
                            allowed.add(new Writes.StationValue(StationStatus.REVOKED.name(), Writes.value(other).permissions()));
                        }
                    }
                }
            }
        }
        if (!allowed.contains(actual.get())) {
            lost(out, last, "overwritten", Writes.value(last).toString(), state.replica(), actual.get().toString());
        }
    }

    private static void checkEcs(ReplicaState state, String station, List<Op> ops, Map<String, Loss> out) {
        List<Op> enrolments = ops.stream().filter(o -> o.type().enrolment()).toList();
        Op lastAcked = null;
        for (Op e : enrolments) {
            if (!e.acknowledged() || e.detail("ec") == null) {
                continue;
            }
            lastAcked = e;
            String ec = e.detail("ec");
            Optional<StoredRecord> record = Writes.record(state, FleetKeys.EC + ec);
            if (record.isEmpty() || !station.equals(record.get().fields().get("station"))) {
                lost(out, e, "EC lost", "record of EC " + ec, state.replica(), record.isEmpty() ? "no record" : "another station's");
                continue;
            }
            List<Op> later = enrolments.stream().filter(o -> o.invokedMs() > e.completedMs()).toList();
            boolean supersededByAck = later.stream().anyMatch(Op::acknowledged);
            boolean maybeSuperseded = later.stream().anyMatch(o -> o.acknowledged() || o.mayHaveApplied());
            String status = record.get().fields().get("status");
            if (supersededByAck && !"SUPERSEDED".equals(status)) {
                lost(out, later.stream().filter(Op::acknowledged).findFirst().orElseThrow(), "supersede lost",
                        "EC " + ec + " SUPERSEDED", state.replica(), status);
            } else if (!maybeSuperseded && !"ACTIVE".equals(status)) {
                lost(out, e, "EC overwritten", "EC " + ec + " ACTIVE", state.replica(), status);
            }
        }
        if (lastAcked != null) {
            Op last = lastAcked;
            Optional<StoredRecord> pointer = Writes.record(state, FleetKeys.stationEc(station));
            String named = pointer.map(p -> p.fields().get("ec")).orElse(null);
            boolean laterMaybe = enrolments.stream().anyMatch(o -> o.invokedMs() > last.invokedMs() && (o.acknowledged() || o.mayHaveApplied()));
            if (!last.detail("ec").equals(named) && !laterMaybe) {
                lost(out, last, "latest-EC pointer lost", "EC " + last.detail("ec"), state.replica(), named == null ? "no pointer" : "EC " + named);
            }
        }
    }

    /**
     * Milliseconds from the write's acknowledgement to the next crash of its origin (JVM or
     * redis-server killed, alone or as the stalest of a full restart); -1 if it did not crash later.
     */
    static long msBeforeOriginCrash(RunRecord run, Op write) {
        long best = -1;
        for (FaultEvent f : run.faults()) {
            if (!f.targets().contains(write.target())) {
                continue;
            }
            for (String step : List.of("killed", "redis-killed", "stalest-killed")) {
                long at = f.stepAt(step);
                if (at >= write.completedMs() && (best < 0 || at - write.completedMs() < best)) {
                    best = at - write.completedMs();
                }
            }
        }
        return best;
    }

    /** Enrolments refused with a definite refusal (not "maybe applied") whose EC is stored on some replica. */
    static long refusedButStored(RunRecord run) {
        Map<String, Op> refusedByKey = new HashMap<>();
        for (Op o : run.ops()) {
            if (o.type().enrolment() && o.outcome() == Op.Outcome.REFUSED && o.detail("key") != null) {
                refusedByKey.put(o.detail("key"), o);
            }
        }
        if (refusedByKey.isEmpty()) {
            return 0;
        }
        java.util.Set<Long> stored = new java.util.HashSet<>();
        for (ReplicaState state : run.states()) {
            for (KeyContent c : state.contents().values()) {
                if (!c.key().startsWith(FleetKeys.EC) || c.kind() != KeyContent.Kind.HASH) {
                    continue;
                }
                String certificate = c.hash().get("certificate");
                if (certificate == null) {
                    continue;
                }
                try {
                    String key = HEX.formatHex(EtsiCertificate.decode(HEX.parseHex(certificate)).verificationKey().compressed());
                    Op refused = refusedByKey.get(key);
                    if (refused != null) {
                        stored.add(refused.id());
                    }
                } catch (RuntimeException e) {
                    // not a certificate we can read: not one of ours
                }
            }
        }
        return stored.size();
    }
}
