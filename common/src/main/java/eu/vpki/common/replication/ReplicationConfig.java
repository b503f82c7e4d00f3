package eu.vpki.common.replication;

import java.time.Duration;
import java.util.Objects;

/**
 * Configuration of one replica; services build it from their {@code vpki.replication.*} keys
 * (see {@code docs/replication.md}).
 *
 * @param clusterName     JGroups cluster name ({@code vpki.replication.cluster-name})
 * @param replicaId       this replica's stable id, the origin of its commands; must stay the same across
 *                        restarts and be unique in the cluster ({@code vpki.replication.replica-id})
 * @param order           {@code vpki.replication.order}
 * @param propagation     {@code vpki.replication.propagation}
 * @param bindAddress     explicit IPv4/IPv6 address to bind ({@code vpki.replication.bind-address})
 * @param bindPort        JGroups TCP port ({@code vpki.replication.bind-port})
 * @param discovery       how members find each other ({@code vpki.replication.discovery} and its keys)
 * @param expectedMembers configured replica count; writes need a majority of it in the view
 * @param timeouts        request, state-transfer, join and failure-detection timeouts
 * @param applyGrouping   in ASYNC propagation, how long the applier may hold other replicas' commands to
 *                        apply them together in one Redis round trip ({@code vpki.replication.apply-grouping});
 *                        a command of this replica's own is applied at once and takes the held ones along.
 *                        Zero turns grouping off; SYNC propagation never holds commands (their origins wait
 *                        for every replica)
 */
public record ReplicationConfig(String clusterName, String replicaId, Order order, Propagation propagation,
                                String bindAddress, int bindPort, Discovery discovery, int expectedMembers,
                                Timeouts timeouts, Duration applyGrouping) {

    /** The default {@link #applyGrouping}: twice the gap between commands at 1,000 commands/s. */
    public static final Duration DEFAULT_APPLY_GROUPING = Duration.ofMillis(2);
    /** The longest {@link #applyGrouping} accepted: it adds to how far an ASYNC replica lags. */
    public static final Duration MAX_APPLY_GROUPING = Duration.ofMillis(100);

    /** Delivery order of commands. */
    public enum Order {
        /** Every replica applies all commands in one order (JGroups SEQUENCER: senders forward to the coordinator). */
        TOTAL,
        /** Each origin's commands in its order; origins interleave differently per replica (NAKACK2/UNICAST3 only). */
        FIFO
    }

    /** When {@link Replica#submit} completes. */
    public enum Propagation {
        /** After every member of the view applied the command (ResponseMode.GET_ALL). */
        SYNC,
        /** After the origin applied the command in delivery order; the others follow (ResponseMode.GET_NONE). */
        ASYNC
    }

    /** How a replica finds the others. */
    public sealed interface Discovery {
        /** Fixed member list, {@code host[port],host[port]} ({@code vpki.replication.initial-hosts}). */
        record TcpPing(String initialHosts) implements Discovery {
            public TcpPing {
                requireText(initialHosts, "initial-hosts");
            }
        }

        /** DNS A/SRV lookup ({@code vpki.replication.dns-query}); built into JGroups. */
        record DnsPing(String query) implements Discovery {
            public DnsPing {
                requireText(query, "dns-query");
            }
        }

        /**
         * A shared S3 bucket ({@code vpki.replication.s3-bucket}, {@code s3-region}); needs
         * {@code org.jgroups.aws:jgroups-aws} on the class path of the service that selects it.
         */
        record S3Ping(String bucket, String region) implements Discovery {
            public S3Ping {
                requireText(bucket, "s3-bucket");
                requireText(region, "s3-region");
            }
        }
    }

    /**
     * @param reply            how long {@link Replica#submit} waits for confirmations before reporting an unknown outcome
     * @param stateTransfer    how long joining waits for the state
     * @param join             how long a starting member looks for an existing coordinator
     * @param failureDetection silence after which a member is suspected (keep it above the worst GC pause)
     */
    public record Timeouts(Duration reply, Duration stateTransfer, Duration join, Duration failureDetection) {
        public static final Timeouts DEFAULTS = new Timeouts(
                Duration.ofSeconds(5), Duration.ofSeconds(60), Duration.ofSeconds(2), Duration.ofSeconds(20));

        public Timeouts {
            requirePositive(reply, "reply");
            requirePositive(stateTransfer, "state-transfer");
            requirePositive(join, "join");
            requirePositive(failureDetection, "failure-detection");
        }
    }

    public ReplicationConfig {
        requireText(clusterName, "cluster-name");
        CommandId.requireReplicaId(replicaId);
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(propagation, "propagation");
        requireText(bindAddress, "bind-address");
        if (bindPort < 1 || bindPort > 65_535) {
            throw new IllegalArgumentException("bind-port must be 1..65535, got " + bindPort);
        }
        Objects.requireNonNull(discovery, "discovery");
        if (expectedMembers < 1) {
            throw new IllegalArgumentException("expected-members must be at least 1, got " + expectedMembers);
        }
        Objects.requireNonNull(timeouts, "timeouts");
        if (applyGrouping == null || applyGrouping.isNegative() || applyGrouping.compareTo(MAX_APPLY_GROUPING) > 0) {
            throw new IllegalArgumentException("apply-grouping must be 0.." + MAX_APPLY_GROUPING.toMillis() + " ms, got " + applyGrouping);
        }
    }

    /** With the default {@link #DEFAULT_APPLY_GROUPING}. */
    public ReplicationConfig(String clusterName, String replicaId, Order order, Propagation propagation,
                             String bindAddress, int bindPort, Discovery discovery, int expectedMembers, Timeouts timeouts) {
        this(clusterName, replicaId, order, propagation, bindAddress, bindPort, discovery, expectedMembers, timeouts,
                DEFAULT_APPLY_GROUPING);
    }

    /** How long the applier may hold other replicas' commands: {@link #applyGrouping} in ASYNC, none in SYNC. */
    public Duration effectiveApplyGrouping() {
        return propagation == Propagation.ASYNC ? applyGrouping : Duration.ZERO;
    }

    /** The documented defaults (cluster {@code vpki-ea}, FIFO, ASYNC, 127.0.0.1:7800, TCPPING on itself, 1 member, 2 ms apply grouping). */
    public static ReplicationConfig defaults(String replicaId) {
        return new ReplicationConfig("vpki-ea", replicaId, Order.FIFO, Propagation.ASYNC, "127.0.0.1", 7800,
                new Discovery.TcpPing("127.0.0.1[7800]"), 1, Timeouts.DEFAULTS, DEFAULT_APPLY_GROUPING);
    }

    /** Whether a view of {@code members} members may accept writes: more than half of {@link #expectedMembers}. */
    public boolean isMajority(int members) {
        return 2 * members > expectedMembers;
    }

    private static void requireText(String value, String key) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(key + " must be set");
        }
    }

    private static void requirePositive(Duration value, String key) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(key + " timeout must be positive, got " + value);
        }
    }
}
