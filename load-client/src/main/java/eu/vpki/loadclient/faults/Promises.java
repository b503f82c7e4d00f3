package eu.vpki.loadclient.faults;

/**
 * What the documentation promises for each check in each mode, in the terms the checks measure
 * (quoted from docs/replication.md, docs/operator.md and docs/aa.md as of this harness). The report
 * puts each promise next to what was measured.
 */
final class Promises {
    private Promises() {
    }

    /** The promise, or null when the mode promises nothing for this check (availability under faults). */
    static String of(Check check, boolean sync) {
        return switch (check) {
            case LOST_WRITES -> sync
                    ? "none lost: an acknowledged write \"is in every surviving replica's Redis at ack time\" (replication.md, modes)"
                    : "none lost, except writes whose origin dies \"before its multicast got out\" (replication.md, modes); "
                    + "the harness allows a loss whose origin crashed within " + LostWritesChecker.ASYNC_CRASH_WINDOW_MS + " ms of the ack";
            case DIVERGENCE -> "0 differing keys: every replica applies the same commands, \"hence equal digests\" (replication.md, convergence)";
            case READ_YOUR_WRITES -> "0: a read presenting a token waits until this replica applied it, or answers 503 (operator.md)";
            case STALE_VALIDATIONS -> sync
                    ? "0: \"the very next AT request is refused\" after a revocation (aa.md)"
                    : "refused within 5 s on a healthy group; no bound while partitioned or after an origin died (aa.md)";
            case MINORITY_WRITES -> "0: \"at most one side of a partition accepts writes\" (replication.md, majority rule)";
            case SEQUENCE -> "0: \"a restarted replica with the same id never reuses a number\"; every replica applies every command (replication.md)";
            case AVAILABILITY -> null;
        };
    }
}
