package eu.vpki.loadclient.cluster;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The shape of a local cluster: replica counts, consistency mode, where it runs and which ports it
 * uses. Ports: RCA base+1, DC base+2, Operators base+4.., EA replicas base+10.., AAs base+30..;
 * each service's management (actuator) port: its port + {@value #MANAGEMENT_OFFSET}; JGroups of the
 * EA/Operator group: jgroupsBase+i; each replica's redis-server (on a network namespace host)
 * base+50+i.
 *
 * @param appendFsync      {@code appendfsync} of every replica's redis-server: always, everysec or no
 * @param failureDetection the replicas' {@code vpki.replication.failure-detection-timeout}; null for
 *                         the services' default
 */
public record ClusterSpec(Path projectDir, Path workDir, int eaReplicas, int operatorReplicas, int aas, String order,
                          String propagation, int basePort, int jgroupsBasePort, String authorityCurve, String appendFsync,
                          Duration failureDetection) {
    public ClusterSpec {
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

    /** Redis fsyncs its append-only file every second; the services' failure detection. */
    public ClusterSpec(Path projectDir, Path workDir, int eaReplicas, int operatorReplicas, int aas, String order,
                       String propagation, int basePort, int jgroupsBasePort, String authorityCurve) {
        this(projectDir, workDir, eaReplicas, operatorReplicas, aas, order, propagation, basePort, jgroupsBasePort, authorityCurve,
                "everysec", null);
    }

    /** The same cluster in another consistency mode and work directory. */
    public ClusterSpec withMode(String newOrder, String newPropagation, Path newWorkDir) {
        return new ClusterSpec(projectDir, newWorkDir, eaReplicas, operatorReplicas, aas, newOrder, newPropagation, basePort,
                jgroupsBasePort, authorityCurve, appendFsync, failureDetection);
    }

    /** A service's management (actuator: health, metrics) port is its public port + this. */
    public static final int MANAGEMENT_OFFSET = 100;

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
        return eaReplicas + " EA replicas + " + operatorReplicas + " Operator, " + aas + " AAs, " + order + " + " + propagation;
    }
}
