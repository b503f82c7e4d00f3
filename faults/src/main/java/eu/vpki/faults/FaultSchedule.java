package eu.vpki.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * The faults of a run, drawn from a seed: the same seed, counts, replica count and timing give the
 * same schedule (kinds in the same order, the same replica positions, the same hold times and gaps).
 * What the seed cannot fix is decided when a fault is injected and recorded in its
 * {@link FaultEvent}: who the coordinator is at that moment, and how long recoveries take.
 */
public final class FaultSchedule {
    /**
     * Hold times. A pause or a partition lasts the failure-detection timeout plus a draw from
     * {@code [overDetectionMin, overDetectionMax]}, so that the group always notices it.
     */
    public record Timing(Duration restartDelayMin, Duration restartDelayMax, Duration overDetectionMin, Duration overDetectionMax,
                         Duration writeWindowMin, Duration writeWindowMax, Duration gapMin, Duration gapMax) {
        /** Restart after 2-8 s, pauses and partitions 5-20 s beyond detection, 5-15 s of writes before a full restart, 2-6 s gaps. */
        public static Timing defaults() {
            return new Timing(Duration.ofSeconds(2), Duration.ofSeconds(8), Duration.ofSeconds(5), Duration.ofSeconds(20),
                    Duration.ofSeconds(5), Duration.ofSeconds(15), Duration.ofSeconds(2), Duration.ofSeconds(6));
        }
    }

    private FaultSchedule() {
    }

    /**
     * Draws the schedule.
     *
     * @param counts           how many of each kind (kinds absent or 0 are left out; empty or all 0: no faults, for any
     *                         replica count)
     * @param replicas         replicas in the group (EA and Operator)
     * @param failureDetection the group's failure-detection timeout
     */
    public static List<FaultPlan> draw(long seed, Map<FaultKind, Integer> counts, int replicas, Duration failureDetection, Timing timing) {
        List<FaultKind> kinds = new ArrayList<>();
        for (FaultKind kind : FaultKind.values()) {
            int n = counts.getOrDefault(kind, 0);
            if (n < 0) {
                throw new IllegalArgumentException("a negative count of " + kind.label() + ": " + n);
            }
            for (int i = 0; i < n; i++) {
                kinds.add(kind);
            }
        }
        if (kinds.isEmpty()) {
            return List.of();
        }
        if (replicas < 3) {
            throw new IllegalArgumentException("faults need at least 3 replicas (a majority must survive one)");
        }
        Random random = new Random(seed);
        Collections.shuffle(kinds, random);
        int minority = (replicas - 1) / 2;
        List<FaultPlan> plans = new ArrayList<>(kinds.size());
        for (FaultKind kind : kinds) {
            List<Integer> picks = new ArrayList<>(IntStream.range(0, replicas).boxed().toList());
            Collections.shuffle(picks, random);
            long fd = failureDetection.toMillis();
            int size = switch (kind) {
                case PAUSE -> 1 + random.nextInt(minority);
                case PARTITION_MINORITY -> minority;
                default -> 1;
            };
            long hold = switch (kind) {
                case REPLICA_KILL, REDIS_KILL, SEQUENCER_KILL -> between(random, timing.restartDelayMin(), timing.restartDelayMax());
                case PAUSE, PARTITION_MINORITY, PARTITION_COORDINATOR ->
                    fd + between(random, timing.overDetectionMin(), timing.overDetectionMax());
                case FULL_RESTART -> between(random, timing.writeWindowMin(), timing.writeWindowMax());
            };
            long gap = between(random, timing.gapMin(), timing.gapMax());
            plans.add(new FaultPlan(plans.size(), kind, picks, size, hold, gap));
        }
        return plans;
    }

    private static long between(Random random, Duration min, Duration max) {
        long lo = min.toMillis();
        long hi = max.toMillis();
        return hi <= lo ? lo : lo + (long) (random.nextDouble() * (hi - lo));
    }

    /** The default counts per mode: what issue #17's full matrix asks for. */
    public static Map<FaultKind, Integer> matrixCounts() {
        Map<FaultKind, Integer> counts = new EnumMap<>(FaultKind.class);
        counts.put(FaultKind.REPLICA_KILL, 20);
        counts.put(FaultKind.REDIS_KILL, 5);
        counts.put(FaultKind.PAUSE, 3);
        counts.put(FaultKind.PARTITION_MINORITY, 6);
        counts.put(FaultKind.PARTITION_COORDINATOR, 4);
        counts.put(FaultKind.FULL_RESTART, 3);
        counts.put(FaultKind.SEQUENCER_KILL, 5);
        return counts;
    }
}
