package eu.vpki.common.replication;

import java.util.Map;

/**
 * What one member tells the others, every status interval and after every view change: per origin,
 * the highest sequence number it applied (all below it applied too: a version vector) and the first
 * one it still holds in its command log (it can serve pulls from there up to the applied one).
 * Comparing reports, a member finds what it lacks and where to fetch it; the minimum over all members
 * is what every member applied, the log below it can go.
 *
 * @param replicaId the member's replica id
 * @param origin    its current incarnation (the origin of its own commands)
 * @param serving   whether it serves requests (in a majority and caught up)
 * @param applied   origin to highest applied sequence number
 * @param logFrom   origin to the first sequence number still in its log; {@code applied + 1} when none
 * @param stamp     when the member sent this report, on its own monotonic clock ({@code System.nanoTime}):
 *                  meaningful to that member only, which finds it again in the peers' echoes
 * @param echoes    per origin of a peer, the stamp of the latest report received from it: the reply that
 *                  extends that peer's lease (a lease counted from when the peer SENT what is echoed, so
 *                  delivery and processing delays shorten it, never lengthen it)
 */
record AppliedReport(String replicaId, String origin, boolean serving, Map<String, Long> applied,
                     Map<String, Long> logFrom, long stamp, Map<String, Long> echoes) {

    AppliedReport {
        applied = Map.copyOf(applied);
        logFrom = Map.copyOf(logFrom);
        echoes = Map.copyOf(echoes);
    }

    /** A report that echoes nothing (stamp 0). */
    AppliedReport(String replicaId, String origin, boolean serving, Map<String, Long> applied, Map<String, Long> logFrom) {
        this(replicaId, origin, serving, applied, logFrom, 0, Map.of());
    }

    long applied(String of) {
        return applied.getOrDefault(of, 0L);
    }

    /** The first sequence number of {@code of} this member can serve; above {@link #applied(String)} if none. */
    long logFrom(String of) {
        return logFrom.getOrDefault(of, applied(of) + 1);
    }
}
