package eu.vpki.common.replication;

/** The one failure type of this package; {@link #code()} is stable and meant for mapping to client errors. */
public final class ReplicationException extends RuntimeException {

    /** Stable failure codes. Never renumber. */
    public enum Code {
        /** The replica is not (or no longer) a member of the cluster. Nothing was written. */
        NOT_CONNECTED(1),
        /**
         * The view holds no majority of the expected members, or this replica has not heard from a majority
         * within the lease, so it serves nothing. Nothing was written.
         */
        NO_MAJORITY(2),
        /**
         * The command was sent but not confirmed in time (or the majority was lost during the request):
         * it may or may not be applied. Retrying the same operations is safe (they are idempotent).
         */
        TIMEOUT_OUTCOME_UNKNOWN(3),
        /** This replica could not apply to its own Redis; it leaves the cluster. The outcome elsewhere is unknown. */
        APPLY_FAILED(4),
        /** Joining failed: the group could not be joined, or a snapshot could not be fetched. */
        STATE_TRANSFER_FAILED(5),
        /**
         * The replica is a member of a majority but is catching up (after joining, a restart or a merge,
         * or while a command of some origin is missing here), so it serves nothing yet. Nothing was written.
         */
        NOT_SERVING(6);

        private final int number;

        Code(int number) {
            this.number = number;
        }

        public int number() {
            return number;
        }
    }

    private final Code code;

    public ReplicationException(Code code, String message) {
        super(message);
        this.code = code;
    }

    public ReplicationException(Code code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public Code code() {
        return code;
    }

    @Override
    public String getMessage() {
        return code + ": " + super.getMessage();
    }
}
