package eu.vpki.common.replication;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one replica knows of the group, read-only, for people and machines: its JGroups view and
 * coordinator, every member of the view with what it applied per origin (this replica's own figures,
 * and the others' from their latest reports) and how far each is behind, the serving gate and why it
 * is closed, this replica's command log, its gaps and hold-back, and its Redis's memory. Built by
 * {@link Replica#snapshot()}; the services expose it on their management port ({@code /actuator/replication},
 * {@code docs/operations.md}). Cheap but not free (a few Redis reads): for an endpoint or a tool, not for
 * every request ({@link Replica#status()} is that).
 *
 * <p>Positions are sequence numbers per origin (an incarnation of a replica, {@code <replicaId>~<epoch>}):
 * everything up to a position is applied. A member is {@code behind} by, per origin, the highest position
 * any member of the view reported minus its own, summed over origins in {@link Member#behind()}.
 *
 * @param takenAt         when it was taken (the replica's clock)
 * @param cluster         the JGroups cluster name
 * @param status          the replica's state, the gate's verdict and its reason ({@link ReplicaStatus})
 * @param view            the JGroups view id ({@code [coordinator|n]}); empty when not a member
 * @param coordinator     the view's coordinator (its replica id); empty when not a member
 * @param members         every member of the view, in view order, this replica included
 * @param origins         this replica's positions per origin: applied, command log, gap
 * @param queuedCommands  commands delivered here and not yet applied
 * @param redis           this replica's Redis memory; {@code null} when it could not be read
 */
public record ReplicationSnapshot(Instant takenAt, String cluster, ReplicaStatus status, String view, String coordinator,
                                  List<Member> members, List<OriginPosition> origins, int queuedCommands,
                                  RedisMemory redis) {

    public ReplicationSnapshot {
        Objects.requireNonNull(takenAt, "takenAt");
        Objects.requireNonNull(status, "status");
        cluster = cluster == null ? "" : cluster;
        view = view == null ? "" : view;
        coordinator = coordinator == null ? "" : coordinator;
        members = List.copyOf(members);
        origins = List.copyOf(origins);
    }

    /**
     * One member of the view as this replica knows it.
     *
     * @param replicaId      its replica id (its JGroups name)
     * @param origin         its current incarnation; empty when no report of it arrived yet
     * @param self           whether it is the replica that took the snapshot
     * @param coordinator    whether it coordinates the view
     * @param serving        whether it serves (its own word, in its latest report; this replica's gate for itself)
     * @param reportAgeMillis how long ago its latest report arrived; 0 for itself, -1 when none arrived yet
     * @param applied        its highest applied sequence number per origin
     * @param behind         commands it has not applied that some member of the view reported applied; -1 while
     *                       unknown (no report of it arrived yet)
     */
    public record Member(String replicaId, String origin, boolean self, boolean coordinator, boolean serving,
                         long reportAgeMillis, Map<String, Long> applied, long behind) {
        public Member {
            origin = origin == null ? "" : origin;
            applied = Map.copyOf(applied);
        }
    }

    /**
     * This replica's position for one origin.
     *
     * @param origin     the origin ({@code <replicaId>~<epoch>})
     * @param applied    the highest sequence number of it applied here
     * @param newest     the highest any member of the view reported applied (at least {@code applied})
     * @param logFrom    the first sequence number still in this replica's command log; 0 when the log holds none
     * @param logLength  commands of this origin in this replica's command log; -1 when it could not be read
     * @param missingFrom first sequence number of a gap (commands missing here while later ones wait); 0 when no gap
     * @param held       commands of this origin held back until the gap closes
     */
    public record OriginPosition(String origin, long applied, long newest, long logFrom, long logLength, long missingFrom,
                                 int held) {
        /** Commands of this origin some member applied and this replica has not. */
        public long behind() {
            return Math.max(0, newest - applied);
        }
    }

    /**
     * The memory of the replica's Redis ({@code INFO memory}).
     *
     * @param usedBytes {@code used_memory}
     * @param maxBytes  {@code maxmemory}; 0 when Redis has no limit
     */
    public record RedisMemory(long usedBytes, long maxBytes) {
    }

    /** Commands in this replica's command log, over every origin ({@code -1} when a length could not be read). */
    public long commandLogLength() {
        long total = 0;
        for (OriginPosition position : origins) {
            if (position.logLength() < 0) {
                return -1;
            }
            total += position.logLength();
        }
        return total;
    }

    /** This replica's member entry; {@code null} when it is not a member. */
    public Member self() {
        return members.stream().filter(Member::self).findFirst().orElse(null);
    }

    /** The per-origin highest position over every member of the view, sorted by origin. */
    public Map<String, Long> newest() {
        return newest(members);
    }

    /** The per-origin highest position over {@code members}, sorted by origin. */
    static Map<String, Long> newest(List<Member> members) {
        Map<String, Long> newest = new TreeMap<>();
        members.forEach(member -> member.applied().forEach((of, seq) -> newest.merge(of, seq, Math::max)));
        return newest;
    }

    /**
     * {@code members} with {@link Member#behind()} set: per member, the sum over origins of the highest
     * position any of them reached minus its own; -1 for a member no report of which arrived yet (unknown).
     */
    static List<Member> withBehind(List<Member> members) {
        Map<String, Long> newest = newest(members);
        return members.stream().map(member -> {
            long behind = -1;
            if (member.reportAgeMillis() >= 0) {
                behind = 0;
                for (Map.Entry<String, Long> top : newest.entrySet()) {
                    behind += Math.max(0, top.getValue() - member.applied().getOrDefault(top.getKey(), 0L));
                }
            }
            return new Member(member.replicaId(), member.origin(), member.self(), member.coordinator(), member.serving(),
                    member.reportAgeMillis(), member.applied(), behind);
        }).toList();
    }
}
