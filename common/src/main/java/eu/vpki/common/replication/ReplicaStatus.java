package eu.vpki.common.replication;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one replica is doing, as a plain snapshot for health checks (a Spring Boot health indicator,
 * a load balancer's check) and for the services' own gating: only a {@link State#SERVING} replica
 * answers requests from the replicated state. See {@code docs/replication.md}, "Health".
 *
 * @param state           the replica's state, the first that applies in the order of {@link State}
 * @param replicaId       the replica's configured id
 * @param origin          its current incarnation (the origin of its commands); empty before it joined
 * @param viewSize        members in its current view; 0 when not a member
 * @param expectedMembers the configured replica count
 * @param missingCommands commands some member reported applied that this replica has not applied yet
 *                        (includes what is merely in flight)
 * @param heldCommands    commands held back because an earlier command of their origin is missing here
 * @param detail          one line saying why the state is what it is
 */
public record ReplicaStatus(State state, String replicaId, String origin, int viewSize, int expectedMembers,
                            long missingCommands, int heldCommands, String detail) {

    /** A replica's states, in the order they are checked: the first that applies is reported. */
    public enum State {
        /** Closed for good ({@code close()}). */
        CLOSED,
        /** Its Redis failed: it left the group, answers nothing, and rejoins once its Redis answers again. */
        FAILED,
        /** Not (yet) a member: {@code connect()} not called, or joining. */
        STARTING,
        /**
         * Its view holds no majority of the expected members, or no majority holds its lease (none echoed
         * a report it sent within the lease: cut off, or back from a pause): it answers nothing, so that
         * a stale or split side never serves.
         */
        MINORITY,
        /** It holds commands whose predecessors of the same origin it lacks, and fetches them from a peer. */
        GAP,
        /**
         * It joined, restarted or merged and has not yet applied everything a majority applied, or it
         * lags: something a peer applied, or a command delivered here, has waited longer than the lease.
         */
        CATCHING_UP,
        /** In a majority and caught up: serves reads and writes. */
        SERVING;

        /** Whether a replica in this state serves requests. */
        public boolean serving() {
            return this == SERVING;
        }
    }

    public ReplicaStatus {
        Objects.requireNonNull(state, "state");
        replicaId = replicaId == null ? "" : replicaId;
        origin = origin == null ? "" : origin;
        detail = detail == null ? "" : detail;
    }

    /** A status with only the state, the view and why (for tests and tools that know no more). */
    public ReplicaStatus(State state, int viewSize, int expectedMembers, String detail) {
        this(state, "", "", viewSize, expectedMembers, 0, 0, detail);
    }

    /** Whether the replica serves requests from its state. */
    public boolean serving() {
        return state.serving();
    }

    /** The fields by name, in declaration order, for a health endpoint's details. */
    public Map<String, Object> details() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("state", state.name());
        details.put("replicaId", replicaId);
        details.put("origin", origin);
        details.put("viewSize", viewSize);
        details.put("expectedMembers", expectedMembers);
        details.put("missingCommands", missingCommands);
        details.put("heldCommands", heldCommands);
        details.put("detail", detail);
        return details;
    }
}
