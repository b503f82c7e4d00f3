package eu.vpki.testbed;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The shape of a local cluster: replica counts, consistency mode, where it runs and which ports it
 * uses. Ports: RCA base+1, DC base+2, Operators base+4.., EA replicas base+10.., AAs base+30..;
 * each service's management (actuator) port: its port + {@value #MANAGEMENT_OFFSET}; JGroups of the
 * EA/Operator group: jgroupsBase+i (by default {@link #defaultJgroupsBasePort}: base-280, so that
 * the base port alone moves every port); each replica's redis-server (on a network namespace host)
 * base+50+i.
 *
 * @param appendFsync      {@code appendfsync} of every replica's redis-server: always, everysec or no
 * @param failureDetection the replicas' {@code vpki.replication.failure-detection-timeout}; null for
 *                         the services' default
 * @param etsiTls          whether the ETSI endpoints (DC, EA, AA) speak https only, with certificates of the
 *                         run's TLS CA (default: plain HTTP, as their messages are signed and encrypted end to end)
 * @param faketime         libfaketime ({@code libfaketimeMT.so.1} of Debian's {@code faketime}) preloaded into every
 *                         replica JVM, each reading its clock offset from its own file ({@link ReplicaNode#setClockOffset}),
 *                         so that a fault harness can set one replica's clock ahead, behind or step it; null: real clocks
 * @param redisMaxMemory   {@code maxmemory} of every replica's redis-server, in bytes (with {@code maxmemory-policy
 *                         noeviction}); {@link #DEFAULT_REDIS_MAX_MEMORY} unless given
 */
public record ClusterSpec(Path projectDir, Path workDir, int eaReplicas, int operatorReplicas, int aas, String order,
                          String propagation, int basePort, int jgroupsBasePort, String authorityCurve, String appendFsync,
                          Duration failureDetection, boolean etsiTls, Path faketime, long redisMaxMemory) {
    /**
     * 3 GiB per replica's Redis: at the measured 1,023 bytes per registered station and 2.1 KB per enrolled one
     * (docs/deployment.md, "Sizing"), about 1,400,000 enrolled stations, the issue-38 scale run's million with room for
     * the command logs; four replicas' limits together take half of a 24 GB machine.
     */
    public static final long DEFAULT_REDIS_MAX_MEMORY = 3L << 30;

    public ClusterSpec {
        if (redisMaxMemory < 1L << 20) {
            throw new IllegalArgumentException("a replica's Redis needs a maxmemory of at least 1 MiB, not " + redisMaxMemory + " bytes");
        }
        if (eaReplicas < 1 || operatorReplicas < 1 || aas < 1) {
            throw new IllegalArgumentException("a cluster needs at least one EA replica, one Operator and one AA");
        }
        if (eaReplicas > 20 || operatorReplicas > 6 || aas > 20) {
            throw new IllegalArgumentException("at most 20 EA replicas, 6 Operators and 20 AAs (port layout)");
        }
        if (!order.equals("TOTAL") && !order.equals("FIFO")) {
            throw new IllegalArgumentException("order must be TOTAL or FIFO, not " + order);
        }
        if (!propagation.equals("SYNC") && !propagation.equals("ASYNC")) {
            throw new IllegalArgumentException("propagation must be SYNC or ASYNC, not " + propagation);
        }
        if (!eu.vpki.common.redis.RedisServer.APPEND_FSYNC_POLICIES.contains(appendFsync)) {
            throw new IllegalArgumentException("appendfsync must be one of " + eu.vpki.common.redis.RedisServer.APPEND_FSYNC_POLICIES
                    + ", not " + appendFsync);
        }
    }

    /** Real clocks. */
    public ClusterSpec(Path projectDir, Path workDir, int eaReplicas, int operatorReplicas, int aas, String order,
                       String propagation, int basePort, int jgroupsBasePort, String authorityCurve, String appendFsync,
                       Duration failureDetection, boolean etsiTls) {
        this(projectDir, workDir, eaReplicas, operatorReplicas, aas, order, propagation, basePort, jgroupsBasePort, authorityCurve,
                appendFsync, failureDetection, etsiTls, null, DEFAULT_REDIS_MAX_MEMORY);
    }

    /** The ETSI endpoints on plain HTTP. */
    public ClusterSpec(Path projectDir, Path workDir, int eaReplicas, int operatorReplicas, int aas, String order,
                       String propagation, int basePort, int jgroupsBasePort, String authorityCurve, String appendFsync,
                       Duration failureDetection) {
        this(projectDir, workDir, eaReplicas, operatorReplicas, aas, order, propagation, basePort, jgroupsBasePort, authorityCurve,
                appendFsync, failureDetection, false);
    }

    /** Redis fsyncs its append-only file every second; the services' failure detection. */
    public ClusterSpec(Path projectDir, Path workDir, int eaReplicas, int operatorReplicas, int aas, String order,
                       String propagation, int basePort, int jgroupsBasePort, String authorityCurve) {
        this(projectDir, workDir, eaReplicas, operatorReplicas, aas, order, propagation, basePort, jgroupsBasePort, authorityCurve,
                "everysec", null);
    }

    /** The same cluster in another consistency mode and work directory. */
    public ClusterSpec withMode(String newOrder, String newPropagation, Path newWorkDir) {
        return new ClusterSpec(projectDir, newWorkDir, eaReplicas, operatorReplicas, aas, newOrder, newPropagation, basePort,
                jgroupsBasePort, authorityCurve, appendFsync, failureDetection, etsiTls, faketime, redisMaxMemory);
    }

    /** The same cluster with its ETSI endpoints on https only ({@code true}) or plain HTTP. */
    public ClusterSpec withEtsiTls(boolean tls) {
        return new ClusterSpec(projectDir, workDir, eaReplicas, operatorReplicas, aas, order, propagation, basePort,
                jgroupsBasePort, authorityCurve, appendFsync, failureDetection, tls, faketime, redisMaxMemory);
    }

    /** The same cluster with libfaketime preloaded into every replica JVM ({@code library}), or real clocks (null). */
    public ClusterSpec withFaketime(Path library) {
        return new ClusterSpec(projectDir, workDir, eaReplicas, operatorReplicas, aas, order, propagation, basePort,
                jgroupsBasePort, authorityCurve, appendFsync, failureDetection, etsiTls, library, redisMaxMemory);
    }

    /** The same cluster with every replica's Redis limited to {@code bytes} ({@code maxmemory}). */
    public ClusterSpec withRedisMaxMemory(long bytes) {
        return new ClusterSpec(projectDir, workDir, eaReplicas, operatorReplicas, aas, order, propagation, basePort,
                jgroupsBasePort, authorityCurve, appendFsync, failureDetection, etsiTls, faketime, bytes);
    }

    /**
     * A size as Redis writes it: a number of bytes, or with {@code kb}, {@code mb}, {@code gb} (powers of 1024, as
     * Redis reads them; case ignored).
     *
     * @throws IllegalArgumentException if it is not one
     */
    public static long parseBytes(String size) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,15})\\s*(b|kb|mb|gb)?")
                .matcher(size.strip().toLowerCase(java.util.Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("not a size: '" + size + "' (bytes, or a number with kb, mb or gb)");
        }
        int shift = switch (m.group(2) == null ? "b" : m.group(2)) {
            case "kb" -> 10;
            case "mb" -> 20;
            case "gb" -> 30;
            default -> 0;
        };
        return Long.parseLong(m.group(1)) << shift;
    }

    /** A service's management (actuator: health, metrics) port is its public port + this. */
    public static final int MANAGEMENT_OFFSET = 100;
    /** The JGroups ports start this far below the HTTP base port unless given (18080 gives 17800). */
    private static final int JGROUPS_BELOW_BASE = 280;

    /** The JGroups base port when none is given: {@code basePort} - 280 (18080 gives 17800, 28080 gives 27800). */
    public static int defaultJgroupsBasePort(int basePort) {
        return basePort - JGROUPS_BELOW_BASE;
    }

    /**
     * Every TCP port the services listen on when they all share one address (loopback): public and
     * management HTTP ports, then JGroups ports (there, each redis-server takes a free port).
     */
    public List<Integer> loopbackPorts() {
        List<Integer> http = new ArrayList<>(List.of(rcaPort(), dcPort()));
        for (int i = 0; i < operatorReplicas; i++) {
            http.add(operatorPort(i));
        }
        for (int i = 0; i < eaReplicas; i++) {
            http.add(eaPort(i));
        }
        for (int i = 0; i < aas; i++) {
            http.add(aaPort(i));
        }
        List<Integer> all = new ArrayList<>(http);
        http.forEach(p -> all.add(managementPort(p)));
        for (int m = 0; m < groupSize(); m++) {
            all.add(jgroupsPort(m));
        }
        return all;
    }

    /**
     * Fails if, on one shared address, a port would be used twice (for example {@code --jgroups-base-port}
     * on the management ports) or lies outside 1..65535.
     */
    public void requireDistinctLoopbackPorts() {
        List<Integer> used = loopbackPorts();
        Set<Integer> seen = new HashSet<>();
        List<Integer> twice = used.stream().filter(p -> !seen.add(p)).distinct().sorted().toList();
        List<Integer> outOfRange = used.stream().filter(p -> p < 1 || p > 65_535).sorted().toList();
        if (!twice.isEmpty() || !outOfRange.isEmpty()) {
            throw new IllegalArgumentException("ports " + (twice.isEmpty() ? outOfRange + " out of range" : twice + " would be used twice")
                    + ": HTTP ports are --base-port + 1, 2, 4.. (Operators), 10.. (EA replicas), 30.. (AAs), each with a management port "
                    + MANAGEMENT_OFFSET + " above it; JGroups ports --jgroups-base-port + 0.." + (groupSize() - 1)
                    + " (--base-port " + basePort + ", --jgroups-base-port " + jgroupsBasePort + ")");
        }
    }

    int rcaPort() {
        return basePort + 1;
    }

    int dcPort() {
        return basePort + 2;
    }

    int operatorPort(int i) {
        return basePort + 4 + i;
    }

    int eaPort(int i) {
        return basePort + 10 + i;
    }

    int aaPort(int i) {
        return basePort + 30 + i;
    }

    /** The management (actuator) port of the service listening on {@code publicPort}. */
    int managementPort(int publicPort) {
        return publicPort + MANAGEMENT_OFFSET;
    }

    /** Port of the redis-server of member i when it runs on a host of its own (on loopback: a free port). */
    int redisPort(int member) {
        return basePort + 50 + member;
    }

    /** JGroups port of member i of the replication group (EA replicas first, then Operators). */
    int jgroupsPort(int member) {
        return jgroupsBasePort + member;
    }

    public int groupSize() {
        return eaReplicas + operatorReplicas;
    }

    public String mode() {
        return order + " + " + propagation;
    }

    public String describe() {
        return eaReplicas + " EA replicas + " + operatorReplicas + " Operator, " + aas + " AAs, " + order + " + " + propagation
                + (etsiTls ? ", ETSI endpoints over TLS" : "");
    }
}
