package eu.vpki.faults;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything one run of one consistency mode left to check: its settings and schedule, the
 * workload's history, the faults as injected, the EA's read-your-writes tokens of the ECs it issued
 * (from its audit log), every replica's state at the end, and whether each replica served from the
 * last heal until its state was read ({@link Serving}), and the replicas' heap, Redis memory and
 * command-log size sampled through the run ({@link Resources}). This is what the history file holds,
 * so that {@code --recheck} judges a run again without the cluster.
 */
public record RunRecord(Info info, List<Op> ops, List<FaultEvent> faults, List<IssuedToken> eaTokens, List<ReplicaState> states,
                        Serving serving, List<Resources> resources) {

    /**
     * @param order            TOTAL or FIFO
     * @param propagation      SYNC or ASYNC
     * @param seed             the schedule's seed
     * @param network          how the services were placed (loopback or namespaces)
     * @param networkFaults    whether partitions could be injected
     * @param failureDetectionMs the replicas' failure-detection timeout
     * @param quietMs          how long the harness waited after the last fault before reading the replicas
     * @param replicas         replica ids in member order (EA replicas, then Operators)
     * @param expectedMembers  the configured group size
     * @param started          wall-clock start (ms offsets in the history count from here)
     * @param durationMs       run length until the replicas were read
     * @param schedule         the faults as drawn from the seed
     * @param settings         every other setting, for the report
     */
    public record Info(String order, String propagation, long seed, String network, boolean networkFaults, long failureDetectionMs,
                       long quietMs, List<String> replicas, int expectedMembers, Instant started, long durationMs,
                       List<FaultPlan> schedule, Map<String, String> settings) {
        public Info {
            replicas = List.copyOf(replicas);
            schedule = List.copyOf(schedule);
            settings = Map.copyOf(settings);
        }

        public String mode() {
            return order + " + " + propagation;
        }

        public boolean sync() {
            return propagation.equals("SYNC");
        }
    }

    /** An EC the EA acknowledged, with the token of its replicated command ({@code seq@origin}) as the EA logged it. */
    public record IssuedToken(String token, String ec, String station, String replica) {
    }

    /**
     * Whether the replicas served after the faults: from {@code healedMs}, when the harness healed
     * every cut, resumed every paused replica and started every process that was down (no fault acts
     * after it), until their state was read, each replica's health probed about once a second.
     *
     * @param healedMs when the harness restored everything, ms since the run started
     * @param samples  every probe, in time order
     */
    public record Serving(long healedMs, List<Sample> samples) {
        public Serving {
            samples = List.copyOf(samples);
        }
    }

    /**
     * One probe of one replica's health on its management port.
     *
     * @param replica the replica
     * @param atMs    when the answer came (or the probe gave up), ms since the run started
     * @param serving whether it answered UP (in a majority view, with its Redis: it serves)
     * @param detail  what it answered when not UP (e.g. {@code health 503 OUT_OF_SERVICE}, {@code no answer}), else empty
     */
    public record Sample(String replica, long atMs, boolean serving, String detail) {
    }

    /**
     * One sample of one replica's resources; -1 where it could not be read (process down, paused).
     *
     * @param replica    the replica
     * @param atMs       when it was taken, ms since the run started
     * @param heapUsed   heap in use, bytes ({@code jvm.memory.used}, area heap, from its actuator)
     * @param heapMax    the heap's maximum, bytes ({@code jvm.memory.max}, area heap)
     * @param redisUsed  its Redis's {@code used_memory}, bytes
     * @param logEntries entries in its command log, every origin's stream together
     */
    public record Resources(String replica, long atMs, long heapUsed, long heapMax, long redisUsed, long logEntries) {
    }

    /** A run without serving or resource samples (histories written before they were taken): not measured. */
    public RunRecord(Info info, List<Op> ops, List<FaultEvent> faults, List<IssuedToken> eaTokens, List<ReplicaState> states) {
        this(info, ops, faults, eaTokens, states, null, List.of());
    }

    public RunRecord {
        ops = List.copyOf(ops);
        faults = List.copyOf(faults);
        eaTokens = List.copyOf(eaTokens);
        states = List.copyOf(states);
        resources = resources == null ? List.of() : List.copyOf(resources);
    }
}
