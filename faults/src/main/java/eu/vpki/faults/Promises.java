package eu.vpki.faults;

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
                    ? "none lost: an acknowledged command is \"applied and logged in a majority of Redis instances\" (replication.md, guarantees per mode)"
                    : "none lost except writes of \"an origin whose multicast reached no other replica before the origin crashed\" "
                    + "and whose own Redis lost them (replication.md, guarantees per mode); the harness allows a loss whose origin "
                    + "crashed within " + LostWritesChecker.ASYNC_CRASH_WINDOW_MS + " ms of the ack";
            case DIVERGENCE -> "0 differing keys \"after the faults stop and 30 s of quiet\" (replication.md, guarantees per mode)";
            case READ_YOUR_WRITES -> "0: a read presenting a token waits until this replica applied it, or answers 503 (operator.md)";
            case STALE_VALIDATIONS -> sync
                    ? "0: the Operator answers once a majority applied the revocation, having waited for every replica of its view; "
                    + "a replica cut off \"serves nothing (lease)\" (replication.md, guarantees per mode; aa.md)"
                    : "refused within 5 s on a healthy group; a replica cut off \"stops serving within the lease (2 s)\" "
                    + "(replication.md, guarantees per mode; aa.md)";
            case MINORITY_WRITES -> sync
                    ? "0: \"only by the side with a majority\" (replication.md, guarantees per mode)"
                    : "the minority acknowledges \"until the minority notices (lease 2 s)\", and those writes are merged after the heal "
                    + "(replication.md, guarantees per mode): one acknowledged more than " + MinorityWritesChecker.ASYNC_MINORITY_WINDOW_MS
                    + " ms after the cut is a violation";
            case SEQUENCE -> "0: sequence numbers \"never reused (every join is a new origin)\"; every gap filled, every replica applies "
                    + "every command (replication.md, guarantees per mode)";
            case AVAILABILITY -> null;
        };
    }
}
