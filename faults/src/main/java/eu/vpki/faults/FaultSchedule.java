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
    /**
     * ... and: {@code longOutage}, how long a {@link FaultKind#LONG_OUTAGE} keeps its replica down; {@code clockOffset},
     * how far a clock fault sets a replica's clock; {@code lease}, the replicas' serving lease, which a
     * {@link FaultKind#SHORT_PAUSE} outlasts (it lasts from the lease + 1 s to the failure detection - 3 s).
     */
    public record Timing(Duration restartDelayMin, Duration restartDelayMax, Duration overDetectionMin, Duration overDetectionMax,
                         Duration writeWindowMin, Duration writeWindowMax, Duration gapMin, Duration gapMax, Duration longOutage,
                         Duration clockOffset, Duration lease) {
        /** The replicas' serving lease when not configured otherwise ({@code vpki.replication.lease}). */
        public static final Duration DEFAULT_LEASE = Duration.ofSeconds(2);
        /** A long outage of the CI-sized runs (the full matrix uses 15 minutes, one documented run an hour). */
        public static final Duration DEFAULT_LONG_OUTAGE = Duration.ofMinutes(1);
        /** Below the 5 minutes beyond which a replica's sealed messages are refused (docs/security.md). */
        public static final Duration DEFAULT_CLOCK_OFFSET = Duration.ofSeconds(240);

        /** The first eight, with the default long outage, clock offset and lease. */
        public Timing(Duration restartDelayMin, Duration restartDelayMax, Duration overDetectionMin, Duration overDetectionMax,
                      Duration writeWindowMin, Duration writeWindowMax, Duration gapMin, Duration gapMax) {
            this(restartDelayMin, restartDelayMax, overDetectionMin, overDetectionMax, writeWindowMin, writeWindowMax, gapMin, gapMax,
                    DEFAULT_LONG_OUTAGE, DEFAULT_CLOCK_OFFSET, DEFAULT_LEASE);
        }

        /** Restart after 2-8 s, pauses and partitions 5-20 s beyond detection, 5-15 s of writes before a full restart, 2-6 s gaps. */
        public static Timing defaults() {
            return new Timing(Duration.ofSeconds(2), Duration.ofSeconds(8), Duration.ofSeconds(5), Duration.ofSeconds(20),
                    Duration.ofSeconds(5), Duration.ofSeconds(15), Duration.ofSeconds(2), Duration.ofSeconds(6));
        }

        /** The same with another long outage and clock offset. */
        public Timing with(Duration newLongOutage, Duration newClockOffset) {
            return new Timing(restartDelayMin, restartDelayMax, overDetectionMin, overDetectionMax, writeWindowMin, writeWindowMax, gapMin,
                    gapMax, newLongOutage, newClockOffset, lease);
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
                case PARTITION_MINORITY, PARTITION_REFUSING -> minority;
                case DOUBLE_KILL -> Math.min(2, minority);
                default -> 1;
            };
            long hold = switch (kind) {
                case REPLICA_KILL, REDIS_KILL, SEQUENCER_KILL, DOUBLE_KILL, EMPTY_JOIN, EMPTY_JOIN_CRASH, REDIS_DATA_LOSS ->
                    between(random, timing.restartDelayMin(), timing.restartDelayMax());
                case PAUSE, PARTITION_MINORITY, PARTITION_COORDINATOR, PARTITION_REFUSING, PARTITION_ONE_WAY, CATCHUP_CRASH, CLOCK_AHEAD,
                        CLOCK_BEHIND, CLOCK_STEP ->
                    fd + between(random, timing.overDetectionMin(), timing.overDetectionMax());
                case FULL_RESTART -> between(random, timing.writeWindowMin(), timing.writeWindowMax());
                case LONG_OUTAGE -> timing.longOutage().toMillis();
                case SHORT_PAUSE -> {
                    long lo = timing.lease().toMillis() + 1_000;
                    yield between(random, Duration.ofMillis(lo), Duration.ofMillis(Math.max(lo, fd - 3_000)));
                }
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
        // issue #34: the faults of a fleet's life
        counts.put(FaultKind.LONG_OUTAGE, 1);
        counts.put(FaultKind.DOUBLE_KILL, 2);
        counts.put(FaultKind.CATCHUP_CRASH, 2);
        counts.put(FaultKind.EMPTY_JOIN, 2);
        counts.put(FaultKind.EMPTY_JOIN_CRASH, 1);
        counts.put(FaultKind.REDIS_DATA_LOSS, 3);
        counts.put(FaultKind.SHORT_PAUSE, 3);
        counts.put(FaultKind.PARTITION_REFUSING, 2);
        counts.put(FaultKind.PARTITION_ONE_WAY, 2);
        counts.put(FaultKind.CLOCK_AHEAD, 1);
        counts.put(FaultKind.CLOCK_BEHIND, 1);
        counts.put(FaultKind.CLOCK_STEP, 1);
        return counts;
    }
}
