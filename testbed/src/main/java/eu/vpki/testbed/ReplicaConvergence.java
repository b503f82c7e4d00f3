package eu.vpki.testbed;

import eu.vpki.common.fleet.FleetKeys;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Waiting until every replica of a local cluster has applied what any of them had applied when the wait
 * began, read from each replica's own Redis (its applied table: the last sequence number applied per
 * origin). In ASYNC propagation an EA replica may not know a station the Operator registered or an EC
 * another replica issued a moment ago, and refuses its enrolment or its AT validation with unknownits until
 * it has applied it (docs/ea.md, "Consistency by mode"); a vehicle retries. The demo registers a fleet,
 * enrols it and then fetches ATs at once, so it waits for this before each of its two timed phases instead
 * of counting those refusals as failures.
 */
public final class ReplicaConvergence {
    private ReplicaConvergence() {
    }

    /** The highest sequence number applied per origin over all the tables. */
    static Map<String, Long> latest(Collection<Map<String, Long>> applied) {
        Map<String, Long> latest = new HashMap<>();
        for (Map<String, Long> table : applied) {
            table.forEach((origin, seq) -> latest.merge(origin, seq, Math::max));
        }
        return latest;
    }

    /** Whether {@code applied} reached {@code target} for every origin of the target. */
    static boolean reached(Map<String, Long> applied, Map<String, Long> target) {
        return target.entrySet().stream().allMatch(t -> applied.getOrDefault(t.getKey(), -1L) >= t.getValue());
    }

    /**
     * Waits up to {@code bound} until every replica applied what any replica had applied now; says so on
     * {@code log} and returns false when the bound passed (or a replica's Redis could not be read) first.
     */
    public static boolean await(List<ReplicaNode> replicas, Duration bound, Consumer<String> log) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        Map<String, Long> target = latest(tables(replicas));
        while (true) {
            try {
                if (tables(replicas).stream().allMatch(t -> reached(t, target))) {
                    return true;
                }
            } catch (RuntimeException e) {
                log.accept("cannot read a replica's applied table: " + e);
            }
            if (System.nanoTime() > deadline) {
                log.accept("the replicas did not all apply the latest commands within " + bound + "; going on");
                return false;
            }
            Thread.sleep(50);
        }
    }

    private static List<Map<String, Long>> tables(List<ReplicaNode> replicas) {
        List<Map<String, Long>> tables = new ArrayList<>();
        for (ReplicaNode r : replicas) {
            tables.add(r.stateMachine(FleetKeys.KEYSPACE).appliedSeqs());
        }
        return tables;
    }
}
