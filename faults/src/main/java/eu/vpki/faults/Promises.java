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
                            + "and whose own Redis lost them (replication.md, guarantees per mode); the harness allows a loss only when the "
                            + "history shows it: the origin's JVM killed after the ack, no other replica applied the command, the origin lost it too";
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
                            + "(replication.md, guarantees per mode): one acknowledged more than "
                            + MinorityWritesChecker.ASYNC_MINORITY_WINDOW_MS
                            + " ms after the cut is a violation";
            case SEQUENCE -> "0: sequence numbers \"never reused (every join is a new origin)\"; every gap filled, every replica applies "
                    + "every command (replication.md, guarantees per mode)";
            case ONE_ACTIVE_EC -> "every station with an EC holds exactly one ACTIVE EC, the one its latest-EC pointer names, on every "
                    + "replica (the harness's reading of ea.md, step 8: one command issues the EC, points the station at it and "
                    + "supersedes the previous one)";
            case LIVENESS ->
                "every replica serving within " + LivenessChecker.BOUND_MS / 1000 + " s of the last heal and without a gap until "
                        + "its state is read (the harness's reading of replication.md: a whole group \"after the faults stop\")";
            case RESOURCES -> "heap below " + Math.round(100 * ResourceChecker.HEAP_SHARE_BOUND)
                    + " % of its maximum at every sample; every "
                    + "command log trimmed empty after " + ResourceChecker.TRIM_QUIET_MS / 1000 + " s of quiet (the harness's reading of "
                    + "replication.md: logs are trimmed once every expected member applied a command)";
            case AVAILABILITY -> null;
        };
    }
}
