package eu.vpki.common.replication;

import java.util.Objects;

/**
 * What a replica can do at one moment: a snapshot for health checks (the service shell reports a
 * replica that is not {@link #serving()} as out of service, so a load balancer stops sending to it)
 * and for operators. Plain data: new states slot in as {@link State} constants that say whether
 * they serve.
 *
 * @param state           where the replica is in its life cycle
 * @param viewSize        members in its current view (0 when not connected)
 * @param expectedMembers the configured replica count a majority is counted against
 * @param detail          why it is not serving, or empty
 */
public record ReplicaStatus(State state, int viewSize, int expectedMembers, String detail) {
    /** Life-cycle states; {@link #serving()} says whether the replica accepts writes in that state. */
    public enum State {
        /** Joining the group and fetching the state. */
        JOINING(false),
        /** Connected, and its view holds a majority of the expected members. */
        ACTIVE(true),
        /** Connected, but its view holds no majority of the expected members. */
        MINORITY(false),
        /** Its Redis (or a state reload) failed: it left the group and must be restarted. */
        FAILED(false),
        /** Closed (shutting down). */
        CLOSED(false);

        private final boolean serving;

        State(boolean serving) {
            this.serving = serving;
        }

        public boolean serving() {
            return serving;
        }
    }

    public ReplicaStatus {
        Objects.requireNonNull(state, "state");
        detail = detail == null ? "" : detail;
    }

    /** Whether the replica accepts writes now. */
    public boolean serving() {
        return state.serving();
    }
}
