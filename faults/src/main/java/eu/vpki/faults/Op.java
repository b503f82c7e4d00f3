package eu.vpki.faults;

import java.util.Map;

/**
 * One operation of the workload as the client saw it: what, on which station, sent to which
 * process, when it was invoked and when it completed (milliseconds since the run started, one
 * monotonic clock), and how it ended.
 *
 * @param id          unique in the run, in invocation order per thread
 * @param type        what was asked
 * @param station     the station's canonical id
 * @param target      the process that served it (replica or AA name)
 * @param invokedMs   when the request was sent
 * @param completedMs when the answer (or the failure) came
 * @param outcome     acknowledged, refused or unknown
 * @param code        {@code ok}, or the refusal / failure code (e.g. {@code operator:replication-unavailable},
 *                    {@code enrolment:baditsstatus}, {@code client:timeout})
 * @param token       the read-your-writes token of an acknowledged Operator write ({@code seq@origin}), else null
 * @param detail      what was written or read: {@code status}, {@code permissions}, {@code ec}, {@code key},
 *                    {@code previousEc}, {@code readOf}, {@code race}, {@code problem}
 */
public record Op(long id, Type type, String station, String target, long invokedMs, long completedMs, Outcome outcome,
                 String code, String token, Map<String, String> detail) {

    /** What an operation asks. */
    public enum Type {
        REGISTER, PERMISSIONS, SUSPEND, REACTIVATE, REVOKE, READ, ENROL, REENROL, AUTHORIZE;

        /** A write through the Operator REST API (changes the station record). */
        public boolean operatorWrite() {
            return this == REGISTER || this == PERMISSIONS || this == SUSPEND || this == REACTIVATE || this == REVOKE;
        }

        /** An enrolment (writes an EC). */
        public boolean enrolment() {
            return this == ENROL || this == REENROL;
        }

        /** Any replicated write. */
        public boolean write() {
            return operatorWrite() || enrolment();
        }
    }

    /** How an operation ended, as the client knows it. */
    public enum Outcome {
        /** Acknowledged: the service said it was done. */
        ACK,
        /** Refused with a code. */
        REFUSED,
        /** No answer: timeout, connection reset. */
        UNKNOWN
    }

    public Op {
        detail = Map.copyOf(detail);
    }

    public boolean acknowledged() {
        return outcome == Outcome.ACK;
    }

    /**
     * Whether a write that was not acknowledged may still have taken effect: no answer, or a refusal
     * that means "not confirmed" rather than "not done": the Operator's 503 replication-unavailable,
     * the EA's deniedrequest (its answer when replication failed), a server error, or an EC that the
     * EA issued but that did not verify.
     */
    public boolean mayHaveApplied() {
        return outcome == Outcome.UNKNOWN || outcome == Outcome.REFUSED
                && (code.equals("operator:replication-unavailable") || code.equals("enrolment:deniedrequest")
                        || code.startsWith("http:5") || code.startsWith("verification:"));
    }

    /**
     * Whether the failure says the system was unavailable (no answer, 503, no EA reachable, a
     * replication refusal) rather than a decision about the request (e.g. a revoked station).
     */
    public boolean unavailable() {
        if (outcome == Outcome.ACK) {
            return false;
        }
        return outcome == Outcome.UNKNOWN || code.startsWith("client:") || code.startsWith("http:")
                || code.equals("operator:replication-unavailable") || code.equals("operator:version-not-yet-applied")
                || code.equals("enrolment:deniedrequest") || code.equals("authorization:aa-ea-cantreachea");
    }

    public String detail(String name) {
        return detail.get(name);
    }
}
