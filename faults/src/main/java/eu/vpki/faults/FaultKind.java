package eu.vpki.faults;

/** The faults the harness injects, one at a time (see docs/reliability.md for each). */
public enum FaultKind {
    /** SIGKILL of a replica's JVM, started again (same replica id, same Redis) after a delay. */
    REPLICA_KILL("kill -9 of a replica JVM, restarted after a delay", false),
    /** SIGKILL of a replica's redis-server, started again on its append-only file; then the replica JVM is restarted. */
    REDIS_KILL("kill -9 of a replica's redis-server, restarted (AOF), then the replica restarted", false),
    /** SIGSTOP of one or two replicas for longer than failure detection, then SIGCONT. */
    PAUSE("SIGSTOP of replicas longer than failure detection, then SIGCONT", false),
    /** A minority of the replicas cut off from the others (clients still reach both sides), then healed. */
    PARTITION_MINORITY("a minority of replicas cut off, then healed", true),
    /** The group coordinator alone cut off from the others, then healed. */
    PARTITION_COORDINATOR("the coordinator isolated, then healed", true),
    /** One replica killed, writes go on, the others stopped; the stalest started first, then the others. */
    FULL_RESTART("whole group restarted, the stalest replica first", false),
    /** TOTAL order only: SIGKILL of the coordinator (the sequencer) under load, restarted after a delay. */
    SEQUENCER_KILL("kill -9 of the coordinator (sequencer, TOTAL only), restarted after a delay", false);

    private final String description;
    private final boolean network;

    FaultKind(String description, boolean network) {
        this.description = description;
        this.network = network;
    }

    public String description() {
        return description;
    }

    /** Whether it needs a network that can be cut (namespaces). */
    public boolean network() {
        return network;
    }

    /** Lower-case name with dashes, as on the command line and in reports. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    public static FaultKind parse(String label) {
        return valueOf(label.strip().toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
    }
}
