package eu.vpki.shell.replication;

import eu.vpki.common.replication.ReplicationConfig;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * {@code vpki.replication.*} (docs/configuration.md, docs/replication.md); validated by {@link ReplicationConfig}.
 * {@code emulated-delays.<replica-id>}: WAN emulation for experiments only (the one-way delay added to messages from
 * that peer; unset in a deployment).
 */
@ConfigurationProperties("vpki.replication")
public record ReplicationProperties(
        @DefaultValue("vpki-ea") String clusterName,
        String replicaId,
        @DefaultValue("FIFO") ReplicationConfig.Order order,
        @DefaultValue("ASYNC") ReplicationConfig.Propagation propagation,
        @DefaultValue("127.0.0.1") String bindAddress,
        @DefaultValue("7800") int bindPort,
        @DefaultValue("TCPPING") String discovery,
        @DefaultValue("127.0.0.1[7800]") String initialHosts,
        String dnsQuery,
        String s3Bucket,
        String s3Region,
        Integer expectedMembers,
        @DefaultValue("5s") Duration replyTimeout,
        @DefaultValue("60s") Duration stateTransferTimeout,
        @DefaultValue("2s") Duration joinTimeout,
        @DefaultValue("20s") Duration failureDetectionTimeout,
        @DefaultValue("2ms") Duration applyGrouping,
        @DefaultValue("500ms") Duration statusInterval,
        Map<String, Duration> emulatedDelays) {

    /** The library configuration; throws IllegalArgumentException naming the key on bad values. */
    public ReplicationConfig toConfig() {
        ReplicationConfig.Discovery d = switch (discovery.toUpperCase(Locale.ROOT)) {
            case "TCPPING" -> new ReplicationConfig.Discovery.TcpPing(initialHosts);
            case "DNS_PING" -> new ReplicationConfig.Discovery.DnsPing(dnsQuery);
            case "S3_PING" -> new ReplicationConfig.Discovery.S3Ping(s3Bucket, s3Region);
            default -> throw new IllegalArgumentException("vpki.replication.discovery must be TCPPING, DNS_PING or S3_PING, got " + discovery);
        };
        String id = replicaId == null || replicaId.isBlank() ? bindAddress + ":" + bindPort : replicaId;
        return new ReplicationConfig(clusterName, id, order, propagation, bindAddress, bindPort, d, members(d),
                new ReplicationConfig.Timeouts(replyTimeout, stateTransferTimeout, joinTimeout, failureDetectionTimeout),
                applyGrouping, statusInterval).withEmulatedDelays(emulatedDelays);
    }

    /** {@code expected-members}; with TCPPING it defaults to the number of hosts {@code initial-hosts} lists. */
    private int members(ReplicationConfig.Discovery discovery) {
        if (expectedMembers != null) {
            return expectedMembers;
        }
        if (discovery instanceof ReplicationConfig.Discovery.TcpPing tcp) {
            return ReplicationConfig.membersListed(tcp.initialHosts());
        }
        throw new IllegalArgumentException("vpki.replication.expected-members must be set with discovery " + this.discovery
                + ": the replica count decides what a majority is");
    }
}
