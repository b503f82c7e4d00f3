package eu.vpki.experiments;

import eu.vpki.testbed.LocalCluster;
import eu.vpki.testbed.ReplicaNode;
import eu.vpki.testbed.ServiceProcess;
import eu.vpki.station.load.PhaseResult;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CPU time every process of a local cluster has used so far (the kernel's count of its user and
 * system time, {@link ProcessHandle.Info#totalCpuDuration()}): taken before and after a phase, the
 * difference divided by the phase's successes is what one operation cost each service: the
 * capacity model's input (docs/experiments.md). A replica's redis-server is counted apart.
 */
public final class CpuMeter {
    private CpuMeter() {
    }

    /** The name of this process (the load client: building requests, reading answers) in a {@link #snapshot}. */
    static final String LOAD_CLIENT = "load client";

    /**
     * CPU nanoseconds so far per process: {@code rca}, {@code dc}, {@code aa-0}, {@code ea-1}, {@code ea-1 redis}, ...,
     * and {@value #LOAD_CLIENT} (this process).
     */
    public static Map<String, Long> snapshot(LocalCluster cluster) {
        Map<String, Long> out = new LinkedHashMap<>();
        out.put(LOAD_CLIENT, cpuNanos(ProcessHandle.current().pid()));
        for (ServiceProcess s : cluster.services()) {
            out.put(s.name(), cpuNanos(s.pid()));
        }
        for (ReplicaNode r : cluster.replicas()) {
            if (r.jvmRunning()) {
                out.put(r.name(), cpuNanos(r.jvm().pid()));
            }
            if (r.redisRunning()) {
                out.put(r.name() + " redis", cpuNanos(r.redis().pid()));
            }
        }
        return out;
    }

    /** Milliseconds of CPU per successful operation of {@code phase}, per process, between two snapshots (processes in both only). */
    public static Map<String, Double> perOperation(Map<String, Long> before, Map<String, Long> after, PhaseResult phase) {
        Map<String, Double> out = new LinkedHashMap<>();
        if (phase.succeeded() == 0) {
            return out;
        }
        after.forEach((name, nanos) -> {
            Long was = before.get(name);
            if (was != null && was >= 0 && nanos >= 0) {
                out.put(name, (nanos - was) / 1e6 / phase.succeeded());
            }
        });
        return out;
    }

    /** The kinds of process the costs are added up by, in table order. */
    public static final java.util.List<String> KINDS = java.util.List.of("EA JVMs", "EA redis-servers", "Operator JVMs",
            "Operator redis-servers", "AA JVMs", "RCA and DC", "load client");

    /** Per-process costs added up by kind ({@link #KINDS}). */
    public static Map<String, Double> byKind(Map<String, Double> perProcess) {
        Map<String, Double> out = new LinkedHashMap<>();
        KINDS.forEach(k -> out.put(k, 0.0));
        perProcess.forEach((name, ms) -> out.merge(kind(name), ms, Double::sum));
        return out;
    }

    static String kind(String process) {
        boolean redis = process.endsWith(" redis");
        if (process.startsWith("ea-")) {
            return redis ? "EA redis-servers" : "EA JVMs";
        }
        if (process.startsWith("operator-")) {
            return redis ? "Operator redis-servers" : "Operator JVMs";
        }
        if (process.equals(LOAD_CLIENT)) {
            return "load client";
        }
        return process.startsWith("aa-") ? "AA JVMs" : "RCA and DC";
    }

    /** The most any one process of a kind's prefix ({@code ea-}, {@code aa-}) used per operation, its redis-server apart. */
    static double busiest(Map<String, Double> perProcess, String prefix, boolean redis) {
        return perProcess.entrySet().stream().filter(e -> e.getKey().startsWith(prefix) && e.getKey().endsWith(" redis") == redis)
                .mapToDouble(Map.Entry::getValue).max().orElse(0);
    }

    /**
     * A table row: the label, successes, CPU ms per operation of each kind, in all, the busiest EA JVM and its
     * redis-server, the busiest AA JVM (the bottleneck of a host each), and the phase's achieved rate (operations/s).
     */
    public static java.util.List<String> row(String label, PhaseResult phase, Map<String, Double> perProcess) {
        java.util.List<String> row = new java.util.ArrayList<>(java.util.List.of(label, Long.toString(phase.succeeded())));
        Map<String, Double> kinds = byKind(perProcess);
        KINDS.forEach(k -> row.add(ms(kinds.get(k))));
        row.add(ms(kinds.values().stream().mapToDouble(Double::doubleValue).sum()));
        row.add(ms(busiest(perProcess, "ea-", false)));
        row.add(ms(busiest(perProcess, "ea-", true)));
        row.add(ms(busiest(perProcess, "aa-", false)));
        row.add(String.format(java.util.Locale.ROOT, "%.1f", phase.achievedRate()));
        return row;
    }

    private static String ms(double v) {
        return String.format(java.util.Locale.ROOT, "%.3f", v);
    }

    /** The header of {@link #row} tables. */
    public static java.util.List<String> header() {
        java.util.List<String> h = new java.util.ArrayList<>(java.util.List.of("phase", "successes"));
        KINDS.forEach(k -> h.add(k + " (CPU ms per operation)"));
        h.add("all processes");
        h.add("busiest EA JVM");
        h.add("busiest EA redis-server");
        h.add("busiest AA JVM");
        h.add("achieved (operations/s)");
        return h;
    }

    /** The table of per-operation CPU costs, with what it measures. */
    public static ExperimentReport.Table table(java.util.List<java.util.List<String>> rows) {
        return new ExperimentReport.Table("CPU per successful operation, by kind of process (the capacity model's input)", header(), rows);
    }

    /** The title of {@link #replicaTable}, by which the capacity model finds it. */
    public static final String REPLICA_TABLE = "CPU per EC on each replica host";

    /**
     * One row per replica of a group (EA and Operator replicas, the JVM and its redis-server): the phase, the mode, the EA
     * replicas and group members, the replica, whether it was the JGroups coordinator ({@code coordinator}: in TOTAL order
     * the sequencer, which relays every command to every member), and its CPU ms per successful EC.
     */
    public static java.util.List<java.util.List<String>> replicaRows(String phase, String mode, int eaReplicas, int members,
                                                                     String coordinator, PhaseResult ec, Map<String, Double> perProcess) {
        java.util.List<java.util.List<String>> out = new java.util.ArrayList<>();
        perProcess.forEach((name, ms) -> {
            boolean replica = name.startsWith("ea-") || name.startsWith("operator-");
            if (replica && !name.endsWith(" redis")) {
                double redis = perProcess.getOrDefault(name + " redis", 0.0);
                out.add(java.util.List.of(phase, mode, Integer.toString(eaReplicas), Integer.toString(members), name,
                        name.equals(coordinator) ? "yes" : "no", ms(ms), ms(redis), ms(ms + redis),
                        String.format(java.util.Locale.ROOT, "%.1f", ec.achievedRate())));
            }
        });
        return out;
    }

    /** The table of {@link #replicaRows}. */
    public static ExperimentReport.Table replicaTable(java.util.List<java.util.List<String>> rows) {
        return new ExperimentReport.Table(REPLICA_TABLE + " (the coordinator is TOTAL order's sequencer)",
                java.util.List.of("phase", "mode",
                        "EA replicas", "group members", "replica", "coordinator", "JVM (CPU ms per EC)", "redis-server (CPU ms per EC)",
                        "host (CPU ms per EC)", "achieved (EC/s)"),
                rows);
    }

    private static long cpuNanos(long pid) {
        return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(Duration::toNanos).orElse(-1L);
    }
}
