package eu.vpki.faults;

import java.util.Comparator;
import java.util.List;

/**
 * Which fault a finding belongs to. Faults run one at a time, each from its first action until the
 * group recovered. An observation (a read, a validation) belongs to the fault active when it was
 * made, or to the one that ended within the last {@link #AFTERMATH_MS}; a lost write belongs to the
 * fault active when it was acknowledged, or else to the next fault, the first thing that could have
 * undone it. Skipped faults take nothing.
 */
final class Attribution {
    /** How long after a fault's recovery an observation is still put down to it. */
    static final long AFTERMATH_MS = 30_000;

    private final List<FaultEvent> faults;

    Attribution(List<FaultEvent> faults) {
        this.faults = faults.stream().filter(Attribution::injected).sorted(Comparator.comparingLong(FaultEvent::startMs)).toList();
    }

    static boolean injected(FaultEvent f) {
        return !f.steps().isEmpty();
    }

    /** The fault active at {@code ms}, or -1. */
    int during(long ms) {
        for (FaultEvent f : faults) {
            if (f.contains(ms)) {
                return f.index();
            }
        }
        return -1;
    }

    /** The fault active at {@code ms}, else the one that ended at most {@link #AFTERMATH_MS} before; -1 if none. */
    int around(long ms) {
        int active = during(ms);
        if (active >= 0) {
            return active;
        }
        FaultEvent last = null;
        for (FaultEvent f : faults) {
            if (f.endMs() < ms && ms - f.endMs() <= AFTERMATH_MS) {
                last = f;
            }
        }
        return last == null ? -1 : last.index();
    }

    /** The fault active at {@code ms}, else the next one to start; -1 if none. */
    int affecting(long ms) {
        int active = during(ms);
        if (active >= 0) {
            return active;
        }
        for (FaultEvent f : faults) {
            if (f.startMs() >= ms) {
                return f.index();
            }
        }
        return -1;
    }
}
