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
    SEQUENCER_KILL("kill -9 of the coordinator (sequencer, TOTAL only), restarted after a delay", false),
    /** SIGKILL of a replica's JVM for a long time under load (a host down), restarted: it catches up on the backlog. */
    LONG_OUTAGE("kill -9 of a replica JVM for a long time under load (--long-outage), restarted", false),
    /** SIGKILL of two replicas' JVMs at once, restarted after a delay. */
    DOUBLE_KILL("kill -9 of two replica JVMs at once, restarted after a delay", false),
    /** A replica killed, restarted once a backlog built up, killed again while it catches up, restarted. */
    CATCHUP_CRASH("kill -9 of a replica, restarted after a backlog, killed again while catching up, restarted", false),
    /**
     * A replaced host: a replica's JVM and redis-server killed and its Redis data deleted, long after the others
     * trimmed their command logs; restarted empty, it can rejoin only through a snapshot.
     */
    EMPTY_JOIN("a replica's JVM and Redis killed, its data deleted after the logs were trimmed, restarted empty (snapshot)", false),
    /** As {@link #EMPTY_JOIN}, and the joiner killed again while it takes its snapshot, then restarted. */
    EMPTY_JOIN_CRASH("as empty-join, and the joiner killed again during its snapshot, restarted", false),
    /**
     * A host's power lost: a replica's JVM and redis-server killed at once and the append-only file cut back to
     * where it was a second before (what the kernel had not yet written), both restarted.
     */
    REDIS_DATA_LOSS("power loss: a replica's JVM and Redis killed, the last second of its append-only file lost, restarted", false),
    /** SIGSTOP of one replica longer than the lease and shorter than failure detection (it stays in the view), SIGCONT. */
    SHORT_PAUSE("SIGSTOP of a replica longer than the lease, shorter than failure detection, then SIGCONT", false),
    /** A minority of the replicas cut off by routes that refuse (the sender gets an error at once), then healed. */
    PARTITION_REFUSING("a minority cut off by refusing routes (connections fail at once), then healed", true),
    /** One replica's packets to the others dropped while theirs to it still arrive, then healed. */
    PARTITION_ONE_WAY("one replica's packets to the others dropped, theirs to it delivered, then healed", true),
    /** A replica restarted with its wall clock ahead by --clock-offset, run under load, restarted with the right clock. */
    CLOCK_AHEAD("a replica restarted with its clock ahead (--clock-offset), then restarted with the right clock", false, true),
    /** A replica restarted with its wall clock behind by --clock-offset, run under load, restarted with the right clock. */
    CLOCK_BEHIND("a replica restarted with its clock behind (--clock-offset), then restarted with the right clock", false, true),
    /** A running replica's wall clock steps ahead by --clock-offset, later steps back, without a restart. */
    CLOCK_STEP("a running replica's clock steps ahead (--clock-offset), then back", false, true);

    private final String description;
    private final boolean network;
    private final boolean clock;

    FaultKind(String description, boolean network) {
        this(description, network, false);
    }

    FaultKind(String description, boolean network, boolean clock) {
        this.description = description;
        this.network = network;
        this.clock = clock;
    }

    /** Whether it needs replicas whose clocks can be set (libfaketime). */
    public boolean clock() {
        return clock;
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
