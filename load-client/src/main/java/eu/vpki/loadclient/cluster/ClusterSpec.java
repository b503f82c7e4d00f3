package eu.vpki.loadclient.cluster;

import java.nio.file.Path;

/**
 * The shape of a local cluster: replica counts, consistency mode, where it runs and which ports it
 * uses. Ports: RCA base+1, DC base+2, Operators base+4.., EA replicas base+10.., AAs base+30..;
 * each service's management (actuator) port: its port + {@value #MANAGEMENT_OFFSET}; JGroups of the
 * EA/Operator group: jgroupsBase+i.
 */
public record ClusterSpec(Path projectDir, Path workDir, int eaReplicas, int operatorReplicas, int aas, String order,
                          String propagation, int basePort, int jgroupsBasePort, String authorityCurve) {
    public ClusterSpec {
        if (eaReplicas < 1 || operatorReplicas < 1 || aas < 1) {
            throw new IllegalArgumentException("a cluster needs at least one EA replica, one Operator and one AA");
        }
        if (!order.equals("TOTAL") && !order.equals("FIFO")) {
            throw new IllegalArgumentException("order must be TOTAL or FIFO, not " + order);
        }
        if (!propagation.equals("SYNC") && !propagation.equals("ASYNC")) {
            throw new IllegalArgumentException("propagation must be SYNC or ASYNC, not " + propagation);
        }
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

    /** JGroups port of member i of the replication group (EA replicas first, then Operators). */
    int jgroupsPort(int member) {
        return jgroupsBasePort + member;
    }

    int groupSize() {
        return eaReplicas + operatorReplicas;
    }

    public String describe() {
        return eaReplicas + " EA replicas + " + operatorReplicas + " Operator, " + aas + " AAs, " + order + " + " + propagation;
    }
}
