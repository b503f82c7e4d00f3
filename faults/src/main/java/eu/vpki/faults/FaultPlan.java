package eu.vpki.faults;

import java.util.List;

/**
 * One fault of a schedule, decided by the seed before the run: which kind, which replicas (as
 * positions in the replica list {@code ea-0.., operator-0..}; the coordinator is looked up when the
 * fault is injected), how long it is held and how long the harness waits after recovery.
 *
 * @param index  position in the schedule
 * @param kind   what to inject
 * @param picks  a seeded permutation of the replica positions: the fault takes the first {@code size}
 * @param size   how many replicas it hits (pauses and minority partitions; 1 otherwise)
 * @param holdMs restart delay (kills), pause or partition length, write window before a full restart
 * @param gapMs  quiet time after recovery, before the next fault
 */
public record FaultPlan(int index, FaultKind kind, List<Integer> picks, int size, long holdMs, long gapMs) {
    public FaultPlan {
        picks = List.copyOf(picks);
        if (size < 1 || size > picks.size()) {
            throw new IllegalArgumentException("size " + size + " outside 1.." + picks.size());
        }
    }

    /** The replica positions hit (before any run-time lookup). */
    public List<Integer> targets() {
        return picks.subList(0, size);
    }
}
