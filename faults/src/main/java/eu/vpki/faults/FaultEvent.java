package eu.vpki.faults;

import java.util.List;

/**
 * One fault as it was injected: its place in the schedule, the replicas it hit (resolved at run
 * time, e.g. the coordinator of the moment), when it started and when the group had recovered from
 * it (every replica healthy again, and the views whole when they could be read), with the steps in
 * between.
 *
 * @param index     position in the schedule (0-based)
 * @param kind      what was injected
 * @param targets   the replicas hit (for a partition: the cut-off side)
 * @param startMs   first action, ms since the run started
 * @param endMs     recovered (or gave up waiting), ms since the run started
 * @param steps     what was done when, e.g. {@code killed}, {@code restarted}, {@code healthy}, {@code cut}, {@code healed}
 * @param recovered whether every replica was healthy (and the views whole) at {@code endMs}
 * @param note      anything worth knowing (e.g. "views not readable", "restart failed: ...")
 */
public record FaultEvent(int index, FaultKind kind, List<String> targets, long startMs, long endMs, List<Step> steps,
                         boolean recovered, String note) {
    /** One action of a fault. */
    public record Step(String name, long atMs) {
    }

    public FaultEvent {
        targets = List.copyOf(targets);
        steps = List.copyOf(steps);
    }

    /** When step {@code name} happened, or -1. */
    public long stepAt(String name) {
        return steps.stream().filter(s -> s.name().equals(name)).mapToLong(Step::atMs).findFirst().orElse(-1);
    }

    public boolean contains(long ms) {
        return ms >= startMs && ms <= endMs;
    }
}
