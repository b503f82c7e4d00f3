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
 * Check 1: acknowledged writes lost. On every replica, after the quiet period, per register:
 * <ul>
 *   <li>an acknowledged registration: the station's record, with the canonical key it was acknowledged with
 *       (two claimants of one id, racing at two Operator replicas, may not both be acknowledged), and its
 *       membership in the operator's fleet; a batch registration (one command) is on every replica whole
 *       or absent, whatever its outcome ("batch torn");</li>
 *   <li>the station's <b>status register</b> (the station record, written by REGISTER, SUSPEND,
 *       REACTIVATE, REVOKE): REVOKED once a revocation was acknowledged (REVOKED is terminal); otherwise
 *       the status of its last acknowledged status write, or of a status write that may have applied (no
 *       clear answer) or ran concurrently with it; a revocation that may have applied allows REVOKED
 *       whatever came after it (a terminal put);</li>
 *   <li>the station's <b>permissions register</b> (written by REGISTER and PERMISSIONS; read as the
 *       services read it, {@code StationRecord.encodedPermissions}): the permissions of its last
 *       acknowledged permission write, or of one that may have applied or ran concurrently with it.
 *       Checked whatever the status register holds, after an acknowledged revocation too: a revocation
 *       racing an acknowledged permission change does not excuse losing the change
 *       ({@code REVOKED + P1} after an acknowledged {@code P2} is a loss of {@code P2});</li>
 *   <li>an acknowledged EC: its record, SUPERSEDED once a later enrolment of the station was
 *       acknowledged (ACTIVE unless a later or racing enrolment may have applied), and the station's
 *       latest-EC pointer naming the last acknowledged EC, or that of a later or racing enrolment that
 *       may have applied (any but an older acknowledged EC when such an enrolment's EC is unknown).</li>
 * </ul>
 * A write missing or overwritten on any replica counts once, with the replicas where it is lost. A
 * replica whose state could not be read is a failure of the check (a violation, subject
 * {@code replica <name>}): what it holds cannot be shown.
 *
 * <p><b>The ASYNC excuse.</b> docs/replication.md allows ASYNC to lose the writes of "an origin whose
 * multicast reached no other replica before the origin crashed" and whose own Redis lost them. A lost
 * ASYNC write is excused (reported, not a violation) only when the history shows exactly that
 * ({@link #asyncExcuse}):
 * <ol>
 *   <li>its command is known: the write's token {@code seq@origin} (the Operator's answer, or the EA's
 *       audit event for the EC); without it nothing can be shown and the loss is a violation;</li>
 *   <li>the origin's JVM was killed after the acknowledgement (a {@code killed} or {@code stalest-killed}
 *       step of a fault targeting the replica that acknowledged it; a redis-server kill does not stop a
 *       live JVM's multicast and excuses nothing);</li>
 *   <li>the command reached no other replica: every other replica was read and its applied sequence
 *       number for that origin is below the command's (a replica delivers an origin's commands in order,
 *       so one that received it, or anything the origin sent after it, would have applied it);</li>
 *   <li>the origin's own Redis lost it too: the loss is found on the origin's replica, when the origin
 *       is one of the replicas read.</li>
 * </ol>
 * Also counted, not as violations: refused enrolments whose EC was stored anyway.
 */
final class LostWritesChecker implements Checker {
    private static final HexFormat HEX = HexFormat.of();
    private static final String UNREADABLE = "replica ";
    private static final java.util.Set<String> JVM_KILLS = java.util.Set.of("killed", "stalest-killed");

    /** One acknowledged write missing or overwritten on some replicas. */
    record Loss(Op write, String what, String expected, Map<String, String> found) {
    }

    /** Whether a finding of this check is a replica that could not be read (not a lost write). */
    static boolean unreadable(Finding f) {
        return f.check() == Check.LOST_WRITES && f.subject().startsWith(UNREADABLE);
    }

    @Override
    public CheckResult check(RunRecord run) {
        List<Loss> losses = losses(run);
        Attribution attribution = new Attribution(run.faults());
        List<Finding> findings = new ArrayList<>();
        for (ReplicaState s : run.states()) {
            if (!s.readable()) {
                findings.add(new Finding(Check.LOST_WRITES, -1, UNREADABLE + s.replica(),
                        "could not be read (" + s.error() + "): the writes it should hold cannot be checked", true, -1));
            }
        }
        long excused = 0;
        for (Loss loss : losses) {
            long beforeCrash = asyncExcuse(run, loss);
            boolean expected = beforeCrash >= 0;
            if (expected) {
                excused++;
            }
            Op w = loss.write();
            findings.add(new Finding(Check.LOST_WRITES, attribute(attribution, w),
                    "op " + w.id() + " " + w.type() + " " + w.station() + " via " + w.target(),
                    loss.what() + ": expected " + loss.expected() + "; found " + loss.found()
                            + (expected
                                    ? "; origin killed " + beforeCrash + " ms after the ack, its command applied by no other"
                                            + " replica (ASYNC: allowed)"
                                    : ""),
                    !expected, beforeCrash));
        }
        Map<String, Long> figures = new LinkedHashMap<>();
        figures.put("acknowledgedWrites", run.ops().stream().filter(o -> o.type().write() && o.acknowledged()).count());
        figures.put("lost", (long) losses.size());
        figures.put("lostEverywhere", losses.stream().filter(l -> l.found().size() == readable(run)).count());
        figures.put("lostWithOriginCrash", excused);
        figures.put("unreadableReplicas", run.states().stream().filter(s -> !s.readable()).count());
        figures.put("refusedEnrolmentsStored", refusedButStored(run));
        String note = run.states().isEmpty() ? "no replica state recorded: not measured" : "";
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
            checkBatches(state, run.ops(), out);
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
        String storedKey = Writes.record(state, FleetKeys.station(station)).map(r -> r.fields().get("key")).orElse(null);
        for (Op r : acked) {
            // a registration creates the station: the key it was acknowledged with must be the one stored (two claimants of
            // one id racing at two Operator replicas may not both be acknowledged)
            if (r.type() == Op.Type.REGISTER && r.detail("key") != null && storedKey != null && !storedKey.equals(r.detail("key"))) {
                lost(out, r, "registration overwritten", "canonical key " + r.detail("key"), state.replica(), "canonical key " + storedKey);
            }
        }
        checkStatus(state, ops, acked, actual.get(), out);
        checkPermissions(state, ops, acked, actual.get(), out);
    }

    /** The status register (the station record): REVOKED is terminal. */
    private static void checkStatus(ReplicaState state, List<Op> ops, List<Op> acked, Writes.StationValue actual, Map<String, Loss> out) {
        Optional<Op> revocation = acked.stream().filter(o -> o.type() == Op.Type.REVOKE).findFirst();
        if (revocation.isPresent()) {
            if (!actual.status().equals(StationStatus.REVOKED.name())) {
                lost(out, revocation.get(), "revocation undone", StationStatus.REVOKED.name(), state.replica(), actual.toString());
            }
            return;
        }
        List<Op> writes = acked.stream().filter(LostWritesChecker::statusWrite).toList();
        if (writes.isEmpty()) {
            return;
        }
        Op last = writes.get(writes.size() - 1);
        java.util.Set<String> allowed = new java.util.HashSet<>();
        allowed.add(last.detail("status"));
        for (Op o : ops) {
            if (o == last || !statusWrite(o)) {
                continue;
            }
            if (o.type() == Op.Type.REVOKE && o.mayHaveApplied()) {
                allowed.add(StationStatus.REVOKED.name()); // a terminal put: it wins whenever it applied
            } else if (o.completedMs() >= last.invokedMs() && (o.mayHaveApplied() || o.acknowledged() && Writes.concurrent(o, last))) {
                allowed.add(o.detail("status"));
            }
        }
        if (!allowed.contains(actual.status())) {
            lost(out, last, "status overwritten", last.detail("status"), state.replica(), actual.toString());
        }
    }

    /** The permissions register, as the services read it; checked after a revocation too. */
    private static void checkPermissions(ReplicaState state, List<Op> ops, List<Op> acked, Writes.StationValue actual,
                                         Map<String, Loss> out) {
        List<Op> writes = acked.stream().filter(LostWritesChecker::permissionsWrite).toList();
        if (writes.isEmpty()) {
            return;
        }
        Op last = writes.get(writes.size() - 1);
        List<java.util.Set<String>> allowed = new ArrayList<>();
        allowed.add(Writes.value(last).permissions());
        for (Op o : ops) {
            if (o != last && permissionsWrite(o) && o.completedMs() >= last.invokedMs()
                    && (o.mayHaveApplied() || o.acknowledged() && Writes.concurrent(o, last))) {
                allowed.add(Writes.value(o).permissions());
            }
        }
        if (!allowed.contains(actual.permissions())) {
            lost(out, last, "permissions overwritten", String.join(",", Writes.value(last).permissions()), state.replica(),
                    actual.toString());
        }
    }

    /** Writes the station record's status: the registration and the status changes. */
    static boolean statusWrite(Op o) {
        return o.type() == Op.Type.REGISTER || o.type() == Op.Type.SUSPEND || o.type() == Op.Type.REACTIVATE
                || o.type() == Op.Type.REVOKE;
    }

    /** Writes the station's permissions: the registration and the permission changes. */
    static boolean permissionsWrite(Op o) {
        return o.type() == Op.Type.REGISTER || o.type() == Op.Type.PERMISSIONS;
    }

    /**
     * A batch registration is one command: on every replica either all of its stations exist or none
     * (whatever its outcome; an acknowledged batch also needs each of them, {@link #checkStation}).
     */
    private static void checkBatches(ReplicaState state, List<Op> ops, Map<String, Loss> out) {
        Map<String, List<Op>> batches = new LinkedHashMap<>();
        for (Op o : ops) {
            if (o.type() == Op.Type.REGISTER && o.detail("batch") != null) {
                batches.computeIfAbsent(o.detail("batch"), b -> new ArrayList<>()).add(o);
            }
        }
        for (List<Op> batch : batches.values()) {
            List<String> present = batch.stream().map(Op::station)
                    .filter(st -> Writes.record(state, FleetKeys.station(st)).isPresent()).toList();
            if (!present.isEmpty() && present.size() < batch.size()) {
                lost(out, batch.get(0), "batch torn", "all " + batch.size() + " stations of batch " + batch.get(0).detail("batch")
                        + " or none", state.replica(), present.size() + " of " + batch.size() + " " + present);
            }
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
            // an enrolment racing this one (at another EA replica) may have superseded it too
            boolean maybeSuperseded = enrolments.stream()
                    .anyMatch(o -> o != e && (o.invokedMs() > e.completedMs() || Writes.concurrent(o, e))
                            && (o.acknowledged() || o.mayHaveApplied()));
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
            // the pointer names the last acknowledged EC, or that of an enrolment invoked later or racing it that may have applied;
            // one of those whose EC is not known (no answer) may have put any EC there but an older acknowledged one
            List<Op> candidates = enrolments.stream()
                    .filter(o -> o != last && (o.invokedMs() > last.invokedMs() || Writes.concurrent(o, last))
                            && (o.acknowledged() || o.mayHaveApplied()))
                    .toList();
            java.util.Set<String> allowed = new java.util.HashSet<>();
            allowed.add(last.detail("ec"));
            candidates.stream().map(o -> o.detail("ec")).filter(java.util.Objects::nonNull).forEach(allowed::add);
            boolean unknownCandidate = candidates.stream().anyMatch(o -> o.detail("ec") == null);
            java.util.Set<String> older = new java.util.HashSet<>();
            enrolments.stream().filter(o -> o.acknowledged() && o.detail("ec") != null && o.completedMs() < last.invokedMs())
                    .forEach(o -> older.add(o.detail("ec")));
            boolean ok = named != null && (allowed.contains(named) || unknownCandidate && !older.contains(named));
            if (!ok) {
                lost(out, last, "latest-EC pointer lost", "EC " + last.detail("ec"), state.replica(),
                        named == null ? "no pointer" : "EC " + named);
            }
        }
    }

    /**
     * The ASYNC excuse of a loss (class javadoc): milliseconds from the write's acknowledgement to the
     * kill of its origin's JVM when the history shows the command died with its origin, else -1.
     */
    static long asyncExcuse(RunRecord run, Loss loss) {
        Op write = loss.write();
        long killed = neverLeftOrigin(run, write, token(run, write));
        if (killed < 0) {
            return -1;
        }
        boolean originRead = run.states().stream().anyMatch(s -> s.replica().equals(write.target()));
        return !originRead || loss.found().containsKey(write.target()) ? killed : -1;
    }

    /**
     * ASYNC only: milliseconds from {@code write}'s acknowledgement to the next kill of its origin's JVM,
     * provided no replica other than the origin applied the command {@code token} ({@code seq@origin}) and
     * every replica was read; -1 otherwise (SYNC, no token, no kill, or some other replica got it).
     */
    static long neverLeftOrigin(RunRecord run, Op write, String token) {
        if (run.info().sync() || write == null || token == null || token.indexOf('@') < 0) {
            return -1;
        }
        String origin = token.substring(token.indexOf('@') + 1);
        long seq = Long.parseLong(token.substring(0, token.indexOf('@')));
        long killed = -1;
        for (FaultEvent f : run.faults()) {
            if (!f.targets().contains(write.target())) {
                continue;
            }
            for (FaultEvent.Step step : f.steps()) {
                if (JVM_KILLS.contains(step.name()) && step.atMs() >= write.completedMs() && (killed < 0 || step.atMs() < killed)) {
                    killed = step.atMs();
                }
            }
        }
        if (killed < 0) {
            return -1;
        }
        for (ReplicaState s : run.states()) {
            if (s.replica().equals(write.target())) {
                continue;
            }
            if (!s.readable() || s.applied().getOrDefault(origin, 0L) >= seq) {
                return -1;
            }
        }
        return killed - write.completedMs();
    }

    /** The token ({@code seq@origin}) of an acknowledged write: the Operator's answer, or the EA's audit event of its EC. */
    static String token(RunRecord run, Op write) {
        if (write.token() != null) {
            return write.token();
        }
        String ec = write.detail("ec");
        if (!write.type().enrolment() || ec == null) {
            return null;
        }
        return run.eaTokens().stream().filter(t -> t.ec().equals(ec)).map(RunRecord.IssuedToken::token).findFirst().orElse(null);
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
