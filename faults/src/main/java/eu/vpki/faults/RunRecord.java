package eu.vpki.faults;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything one run of one consistency mode left to check: its settings and schedule, the
 * workload's history, the faults as injected, the EA's read-your-writes tokens of the ECs it issued
 * (from its audit log), and every replica's state at the end. This is what the history file holds,
 * so that {@code --recheck} judges a run again without the cluster.
 */
public record RunRecord(Info info, List<Op> ops, List<FaultEvent> faults, List<IssuedToken> eaTokens, List<ReplicaState> states) {

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

    public RunRecord {
        ops = List.copyOf(ops);
        faults = List.copyOf(faults);
        eaTokens = List.copyOf(eaTokens);
        states = List.copyOf(states);
    }
}
