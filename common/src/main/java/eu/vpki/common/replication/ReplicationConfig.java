package eu.vpki.common.replication;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
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
 *                        for them)
 * @param statusInterval  how often each member reports what it applied to the others
 *                        ({@code vpki.replication.status-interval}); a member that has not heard from a majority
 *                        for {@link #lease()} (four intervals) stops serving, and the lease must be shorter
 *                        than the reply timeout (docs/design-replication-recovery.md)
 * @param tls             mutual TLS of the JGroups transport ({@code vpki.replication.tls.*};
 *                        docs/design-replication-security.md): off, or this replica's key store (its key and
 *                        certificate from the deployment CA) and the trust store holding that CA
 * @param emulatedDelays  WAN emulation for experiments ({@code vpki.replication.emulated-delays.<replica-id>}):
 *                        the one-way delay added to every message received from each named peer
 *                        ({@link PeerDelay}; docs/design-wan-emulation.md); empty (the default) in a deployment,
 *                        where the network has its own delays. A round trip (twice a delay) must stay shorter
 *                        than the {@link #lease()}
 * @param maxLogCommands  how many commands of one origin a command log keeps at most while a member of
 *                        {@code expectedMembers} is absent or stale ({@code vpki.replication.log-max-commands}): beyond
 *                        it the oldest are trimmed although that member lacks them, and it rejoins through a state
 *                        transfer ({@link StateTransfer}). With every member present, logs are trimmed of what all
 *                        applied, whatever this bound
 */
public record ReplicationConfig(String clusterName, String replicaId, Order order, Propagation propagation,
                                String bindAddress, int bindPort, Discovery discovery, int expectedMembers,
                                Timeouts timeouts, Duration applyGrouping, Duration statusInterval, Tls tls,
                                Map<String, Duration> emulatedDelays, long maxLogCommands) {

    /** The default {@link #applyGrouping}: twice the gap between commands at 1,000 commands/s. */
    public static final Duration DEFAULT_APPLY_GROUPING = Duration.ofMillis(2);
    /** The longest {@link #applyGrouping} accepted: it adds to how far an ASYNC replica lags. */
    public static final Duration MAX_APPLY_GROUPING = Duration.ofMillis(100);
    /** The default {@link #statusInterval}. */
    public static final Duration DEFAULT_STATUS_INTERVAL = Duration.ofMillis(500);
    private static final Duration MIN_STATUS_INTERVAL = Duration.ofMillis(50);
    private static final Duration MAX_STATUS_INTERVAL = Duration.ofSeconds(10);
    private static final int LEASE_INTERVALS = 4;

    /** Delivery order of commands. */
    public enum Order {
        /** Every replica applies all commands in one order (JGroups SEQUENCER: senders forward to the coordinator). */
        TOTAL,
        /** Each origin's commands in its order; origins interleave differently per replica (NAKACK2/UNICAST3 only). */
        FIFO
    }

    /** When {@link Replica#submit} completes. */
    public enum Propagation {
        /**
         * After a majority of the expected members applied the command; every member of the view is asked
         * and waited for (ResponseMode.GET_ALL, then an applied-query) up to the reply timeout, except one
         * that answers it cannot apply the command yet (it is catching up, hence not serving).
         */
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
     * @param stateTransfer    how long one page of a state transfer may take ({@link StateTransfer}), and the applier to pause
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

    /**
     * Mutual TLS between the members (JGroups {@code TCP} with {@code tls.client_auth=NEED}, TLS 1.3): a peer
     * without a certificate from the deployment CA can neither connect nor accept, so it cannot join, fetch
     * state or send. PKCS#12 stores; {@link #OFF} for a plain transport (tests, a single host).
     */
    public record Tls(boolean enabled, Path keyStore, String keyStorePassword, Path trustStore, String trustStorePassword) {
        /** No TLS: anyone who reaches the port can join (docs/design-replication-security.md says when that is acceptable). */
        public static final Tls OFF = new Tls(false, null, null, null, null);

        public Tls {
            if (enabled) {
                Objects.requireNonNull(keyStore, "tls key-store");
                Objects.requireNonNull(trustStore, "tls trust-store");
                Objects.requireNonNull(keyStorePassword, "tls key-store password");
                Objects.requireNonNull(trustStorePassword, "tls trust-store password");
            }
        }

        /** TLS with this replica's key store and the deployment CA's trust store. */
        public static Tls of(Path keyStore, String keyStorePassword, Path trustStore, String trustStorePassword) {
            return new Tls(true, keyStore, keyStorePassword, trustStore, trustStorePassword);
        }

        @Override
        public String toString() {
            return enabled ? "Tls[key-store=" + keyStore + ", trust-store=" + trustStore + "]" : "Tls[off]";
        }
    }

    public ReplicationConfig {
        Objects.requireNonNull(tls, "tls");
        emulatedDelays = emulatedDelays == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(emulatedDelays));
        requireText(clusterName, "cluster-name");
        CommandId.requireReplicaId(replicaId);
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(propagation, "propagation");
        requireText(bindAddress, "bind-address");
        if (bindPort < 1 || bindPort > 65_535) {
            throw new IllegalArgumentException("bind-port must be 1..65535, got " + bindPort);
        }
        Objects.requireNonNull(discovery, "discovery");
        if (maxLogCommands < 1) {
            throw new IllegalArgumentException("log-max-commands must be at least 1, got " + maxLogCommands);
        }
        if (expectedMembers < 1) {
            throw new IllegalArgumentException("expected-members must be at least 1, got " + expectedMembers);
        }
        Objects.requireNonNull(timeouts, "timeouts");
        if (applyGrouping == null || applyGrouping.isNegative() || applyGrouping.compareTo(MAX_APPLY_GROUPING) > 0) {
            throw new IllegalArgumentException("apply-grouping must be 0.." + MAX_APPLY_GROUPING.toMillis() + " ms, got " + applyGrouping);
        }
        if (statusInterval == null || statusInterval.compareTo(MIN_STATUS_INTERVAL) < 0
                || statusInterval.compareTo(MAX_STATUS_INTERVAL) > 0) {
            throw new IllegalArgumentException("status-interval must be " + MIN_STATUS_INTERVAL.toMillis() + " ms.."
                    + MAX_STATUS_INTERVAL.toSeconds() + " s, got " + statusInterval);
        }
        if (statusInterval.multipliedBy(LEASE_INTERVALS).compareTo(timeouts.reply()) >= 0) {
            throw new IllegalArgumentException("status-interval " + statusInterval + " times " + LEASE_INTERVALS
                    + " must be shorter than reply-timeout " + timeouts.reply()
                    + ": a replica cut off must stop serving before a write it lacks can be acknowledged");
        }
        Duration lease = statusInterval.multipliedBy(LEASE_INTERVALS);
        emulatedDelays.forEach((peer, delay) -> {
            CommandId.requireReplicaId(peer);
            if (delay == null || delay.isNegative() || delay.multipliedBy(2).compareTo(lease) >= 0) {
                throw new IllegalArgumentException(
                        "emulated-delays." + peer + " must be at least 0 and a round trip shorter than the lease "
                                + lease.toMillis() + " ms, got " + delay);
            }
        });
    }

    /**
     * Default {@link #maxLogCommands}: about 650 MB of a replica's Redis per origin at the 1.3 KB of an enrolment command.
     * A member absent longer than the group takes to write that many commands of one origin rejoins through a state
     * transfer.
     */
    public static final long DEFAULT_MAX_LOG_COMMANDS = 500_000;

    /** With the default {@link #DEFAULT_MAX_LOG_COMMANDS}. */
    public ReplicationConfig(String clusterName, String replicaId, Order order, Propagation propagation,
                             String bindAddress, int bindPort, Discovery discovery, int expectedMembers, Timeouts timeouts,
                             Duration applyGrouping, Duration statusInterval, Tls tls, Map<String, Duration> emulatedDelays) {
        this(clusterName, replicaId, order, propagation, bindAddress, bindPort, discovery, expectedMembers, timeouts,
                applyGrouping, statusInterval, tls, emulatedDelays, DEFAULT_MAX_LOG_COMMANDS);
    }

    /** Without emulated delays. */
    public ReplicationConfig(String clusterName, String replicaId, Order order, Propagation propagation,
                             String bindAddress, int bindPort, Discovery discovery, int expectedMembers, Timeouts timeouts,
                             Duration applyGrouping, Duration statusInterval, Tls tls) {
        this(clusterName, replicaId, order, propagation, bindAddress, bindPort, discovery, expectedMembers, timeouts,
                applyGrouping, statusInterval, tls, Map.of());
    }

    /** Without TLS ({@link Tls#OFF}). */
    public ReplicationConfig(String clusterName, String replicaId, Order order, Propagation propagation,
                             String bindAddress, int bindPort, Discovery discovery, int expectedMembers, Timeouts timeouts,
                             Duration applyGrouping, Duration statusInterval) {
        this(clusterName, replicaId, order, propagation, bindAddress, bindPort, discovery, expectedMembers, timeouts,
                applyGrouping, statusInterval, Tls.OFF);
    }

    /** The same configuration with mutual TLS of the transport. */
    public ReplicationConfig withTls(Tls transportSecurity) {
        return new ReplicationConfig(clusterName, replicaId, order, propagation, bindAddress, bindPort, discovery, expectedMembers,
                timeouts, applyGrouping, statusInterval, transportSecurity, emulatedDelays, maxLogCommands);
    }

    /** The same configuration with command logs bounded to {@code commands} per origin ({@link #maxLogCommands}). */
    public ReplicationConfig withMaxLogCommands(long commands) {
        return new ReplicationConfig(clusterName, replicaId, order, propagation, bindAddress, bindPort, discovery, expectedMembers,
                timeouts, applyGrouping, statusInterval, tls, emulatedDelays, commands);
    }

    /** The same configuration with these one-way delays from peers ({@link #emulatedDelays}; experiments only). */
    public ReplicationConfig withEmulatedDelays(Map<String, Duration> delays) {
        return new ReplicationConfig(clusterName, replicaId, order, propagation, bindAddress, bindPort, discovery, expectedMembers,
                timeouts, applyGrouping, statusInterval, tls, delays, maxLogCommands);
    }

    /** With the default {@link #DEFAULT_STATUS_INTERVAL}. */
    public ReplicationConfig(String clusterName, String replicaId, Order order, Propagation propagation,
                             String bindAddress, int bindPort, Discovery discovery, int expectedMembers, Timeouts timeouts,
                             Duration applyGrouping) {
        this(clusterName, replicaId, order, propagation, bindAddress, bindPort, discovery, expectedMembers, timeouts,
                applyGrouping, DEFAULT_STATUS_INTERVAL);
    }

    /** With the default {@link #DEFAULT_APPLY_GROUPING} and {@link #DEFAULT_STATUS_INTERVAL}. */
    public ReplicationConfig(String clusterName, String replicaId, Order order, Propagation propagation,
                             String bindAddress, int bindPort, Discovery discovery, int expectedMembers, Timeouts timeouts) {
        this(clusterName, replicaId, order, propagation, bindAddress, bindPort, discovery, expectedMembers, timeouts,
                DEFAULT_APPLY_GROUPING);
    }

    /**
     * How long a member keeps serving without hearing from a majority: four status intervals. Shorter
     * than the reply timeout, so a member cut off from the others stops serving before a SYNC write it
     * never received can be acknowledged without it.
     */
    public Duration lease() {
        return statusInterval.multipliedBy(LEASE_INTERVALS);
    }

    /** Members that form a majority of {@link #expectedMembers}. */
    public int majority() {
        return expectedMembers / 2 + 1;
    }

    /** How long the applier may hold other replicas' commands: {@link #applyGrouping} in ASYNC, none in SYNC. */
    public Duration effectiveApplyGrouping() {
        return propagation == Propagation.ASYNC ? applyGrouping : Duration.ZERO;
    }

    /**
     * The documented defaults (cluster {@code vpki-ea}, FIFO, ASYNC, 127.0.0.1:7800, TCPPING on itself,
     * 1 member, as many as TCPPING lists, 2 ms apply grouping, 500 ms status interval).
     */
    public static ReplicationConfig defaults(String replicaId) {
        return new ReplicationConfig("vpki-ea", replicaId, Order.FIFO, Propagation.ASYNC, "127.0.0.1", 7800,
                new Discovery.TcpPing("127.0.0.1[7800]"), 1, Timeouts.DEFAULTS, DEFAULT_APPLY_GROUPING,
                DEFAULT_STATUS_INTERVAL, Tls.OFF);
    }

    /**
     * The number of hosts a TCPPING {@code initial-hosts} list names ({@code host[port],host[port]}): the
     * default of {@code expected-members} with TCPPING, which lists every member.
     */
    public static int membersListed(String initialHosts) {
        int count = 0;
        for (String host : initialHosts.split(",")) {
            if (!host.isBlank()) {
                count++;
            }
        }
        return count;
    }

    /** Whether a view of {@code members} members may accept writes: more than half of {@link #expectedMembers}. */
    public boolean isMajority(int members) {
        return members >= majority();
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
