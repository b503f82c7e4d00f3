package eu.vpki.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Check 7: per-origin sequence numbers. Every acknowledged write has a token {@code seq@origin}: the
 * Operator returns it, the EA writes it in its audit log ({@link AuditTokens}). Found:
 * <ul>
 *   <li><b>reuse</b>: one token acknowledged for two different writes (an origin numbering again from
 *       an older counter; docs/replication.md: "a restarted replica with the same id never reuses a number");</li>
 *   <li><b>skipped</b>: a replica applied an origin beyond an acknowledged command of it (its applied
 *       sequence number is at or above the token's) yet lacks that command's write: the command was
 *       skipped, a gap the apply script let through;</li>
 *   <li><b>behind</b>: a replica's applied sequence number of an origin below that origin's last
 *       acknowledged command after the quiet period: a gap that stalled it, or a command it never got.</li>
 * </ul>
 * All are violations in every mode.
 */
final class SequenceChecker implements Checker {
    /** Losses where the write is absent (not overwritten): a replica past its sequence number skipped it. */
    private static final Set<String> MISSING = Set.of("registration lost", "fleet membership lost", "station record lost", "EC lost");

    /** One acknowledged write's token. */
    private record Token(String origin, long seq, String write, Op op) {
    }

    @Override
    public CheckResult check(RunRecord run) {
        Attribution attribution = new Attribution(run.faults());
        Map<String, Op> enrolmentsByEc = new HashMap<>();
        for (Op op : run.ops()) {
            if (op.type().enrolment() && op.acknowledged() && op.detail("ec") != null) {
                enrolmentsByEc.put(op.detail("ec"), op);
            }
        }
        List<Token> tokens = new ArrayList<>();
        for (Op op : run.ops()) {
            if (op.type().operatorWrite() && op.acknowledged() && op.token() != null) {
                // the stations of one batch registration share its command's token
                tokens.add(token(op.token(), op.detail("batch") != null ? "batch " + op.detail("batch") : "op " + op.id(), op));
            }
        }
        for (RunRecord.IssuedToken t : run.eaTokens()) {
            tokens.add(token(t.token(), "EC " + t.ec(), enrolmentsByEc.get(t.ec())));
        }
        List<Finding> findings = new ArrayList<>();
        Map<String, Set<String>> writesByToken = new TreeMap<>();
        Map<String, Token> firstByToken = new HashMap<>();
        for (Token t : tokens) {
            String text = t.seq() + "@" + t.origin();
            writesByToken.computeIfAbsent(text, k -> new TreeSet<>()).add(t.write());
            firstByToken.putIfAbsent(text, t);
        }
        long reused = 0;
        for (Map.Entry<String, Set<String>> e : writesByToken.entrySet()) {
            if (e.getValue().size() > 1) {
                reused++;
                Op op = firstByToken.get(e.getKey()).op();
                findings.add(new Finding(Check.SEQUENCE, op == null ? -1 : attribution.affecting(op.completedMs()), "token " + e.getKey(),
                        "reused: acknowledged for " + e.getValue(), true, -1));
            }
        }
        // skipped commands: lost on a replica that applied their origin beyond them
        Map<Long, LostWritesChecker.Loss> lossByOp = new HashMap<>();
        LostWritesChecker.losses(run).forEach(l -> lossByOp.put(l.write().id(), l));
        Map<String, ReplicaState> states = new HashMap<>();
        run.states().stream().filter(ReplicaState::readable).forEach(s -> states.put(s.replica(), s));
        long skipped = 0;
        for (Token t : tokens) {
            String text = t.seq() + "@" + t.origin();
            if (t.op() == null || writesByToken.get(text).size() > 1) {
                continue; // a reused token explains a skip by itself: counted once, as reuse
            }
            LostWritesChecker.Loss loss = lossByOp.get(t.op().id());
            if (loss == null || !MISSING.contains(loss.what())) {
                continue; // an overwritten value may have been applied and then lost to a newer version: not a skip
            }
            List<String> past = new ArrayList<>();
            for (String replica : loss.found().keySet()) {
                ReplicaState s = states.get(replica);
                long applied = s == null ? 0 : s.applied().getOrDefault(t.origin(), 0L);
                if (applied >= t.seq()) {
                    past.add(replica + " (applied up to " + applied + ")");
                }
            }
            if (!past.isEmpty()) {
                skipped++;
                findings.add(new Finding(Check.SEQUENCE, LostWritesChecker.attribute(attribution, t.op()), "token " + text,
                        "skipped: " + past + " applied " + t.origin() + " beyond it but lack its write (" + loss.what() + ")", true, -1));
            }
        }
        // replicas behind an origin's last acknowledged command
        Map<String, Token> lastByOrigin = new HashMap<>();
        for (Token t : tokens) {
            lastByOrigin.merge(t.origin(), t, (a, b) -> a.seq() >= b.seq() ? a : b);
        }
        long behind = 0;
        for (ReplicaState s : states.values()) {
            for (Token last : lastByOrigin.values()) {
                long applied = s.applied().getOrDefault(last.origin(), 0L);
                if (applied < last.seq()) {
                    behind++;
                    // ASYNC allows losing what died with its origin (LostWritesChecker.neverLeftOrigin)
                    long beforeCrash = LostWritesChecker.neverLeftOrigin(run, last.op(), last.seq() + "@" + last.origin());
                    boolean allowed = beforeCrash >= 0;
                    findings.add(new Finding(Check.SEQUENCE, last.op() == null ? -1 : attribution.affecting(last.op().completedMs()),
                            s.replica() + " / " + last.origin(), s.replica() + " applied " + last.origin() + " up to " + applied
                                    + ", its last acknowledged command is " + last.seq()
                                    + (allowed
                                            ? " (ASYNC: origin killed " + beforeCrash
                                                    + " ms after it, no other replica applied it: allowed)"
                                            : ""),
                            !allowed, -1));
                }
            }
        }
        Map<String, Long> figures = new LinkedHashMap<>();
        figures.put("tokens", (long) tokens.size());
        figures.put("eaTokens", (long) run.eaTokens().size());
        figures.put("reused", reused);
        figures.put("skipped", skipped);
        figures.put("behind", behind);
        boolean ecsAcked = !enrolmentsByEc.isEmpty();
        String note = ecsAcked && run.eaTokens().isEmpty()
                ? "no EA audit tokens found: the EA's sequence numbers are not judged, only the Operators'"
                : "";
        return new CheckResult(Check.SEQUENCE, findings, figures, note);
    }

    private static Token token(String text, String write, Op op) {
        int at = text.indexOf('@');
        return new Token(text.substring(at + 1), Long.parseLong(text.substring(0, at)), write, op);
    }
}
