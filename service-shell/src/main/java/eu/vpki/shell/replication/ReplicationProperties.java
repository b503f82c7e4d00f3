package eu.vpki.shell.replication;

import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.SoftwareKeyStore;
import eu.vpki.common.replication.ReplicationConfig;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * {@code vpki.replication.*} (docs/configuration.md, docs/replication.md); validated by {@link ReplicationConfig}.
 * {@code emulated-delays.<replica-id>}: WAN emulation for experiments only (the one-way delay added to messages from
 * that peer; unset in a deployment).
 *
 * @param logMaxCommands   how many commands of one origin the command log keeps at most while an expected member is
 *                         absent ({@code log-max-commands}; that member then rejoins through a state transfer)
 * @param tlsKeyStore      this replica's PKCS#12 key store from the deployment CA (its key, {@code CN=<replica-id>});
 *                         when set, the transport runs mutual TLS and every command is signed
 *                         (docs/design-replication-security.md); unset: plain TCP, nothing signed
 * @param tlsTrustStore    PKCS#12 trust store with the deployment CA certificate(s); required with {@code tls-key-store}
 * @param tlsPasswordFile  file whose first line is the password of both stores; without it the environment
 *                         variable {@value #TLS_PASSWORD_ENV}
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
                                    Map<String, Duration> emulatedDelays,
                                    @DefaultValue("500000") long logMaxCommands,
                                    Path tlsKeyStore,
                                    Path tlsTrustStore,
                                    Path tlsPasswordFile) {

    /** Environment variable holding the stores' password when no {@code tls-password-file} is given. */
    public static final String TLS_PASSWORD_ENV = "VPKI_REPLICATION_TLS_PASSWORD";

    /** The library configuration; throws IllegalArgumentException naming the key on bad values. */
    public ReplicationConfig toConfig() {
        ReplicationConfig.Discovery d = switch (discovery.toUpperCase(Locale.ROOT)) {
            case "TCPPING" -> new ReplicationConfig.Discovery.TcpPing(initialHosts);
            case "DNS_PING" -> new ReplicationConfig.Discovery.DnsPing(dnsQuery);
            case "S3_PING" -> new ReplicationConfig.Discovery.S3Ping(s3Bucket, s3Region);
            default ->
                throw new IllegalArgumentException("vpki.replication.discovery must be TCPPING, DNS_PING or S3_PING, got " + discovery);
        };
        String id = replicaId == null || replicaId.isBlank() ? bindAddress + ":" + bindPort : replicaId;
        return new ReplicationConfig(clusterName, id, order, propagation, bindAddress, bindPort, d, members(d),
                new ReplicationConfig.Timeouts(replyTimeout, stateTransferTimeout, joinTimeout, failureDetectionTimeout),
                applyGrouping, statusInterval, tls(System.getenv())).withEmulatedDelays(emulatedDelays)
                .withMaxLogCommands(logMaxCommands);
    }

    /** Mutual TLS when {@code tls-key-store} is set; the password from its file, else from {@code environment}. */
    ReplicationConfig.Tls tls(Map<String, String> environment) {
        if (tlsKeyStore == null) {
            if (tlsTrustStore != null) {
                throw new IllegalArgumentException("vpki.replication.tls-trust-store is set without vpki.replication.tls-key-store");
            }
            return ReplicationConfig.Tls.OFF;
        }
        if (tlsTrustStore == null) {
            throw new IllegalArgumentException("vpki.replication.tls-trust-store must be set with vpki.replication.tls-key-store");
        }
        for (Path store : new Path[]{tlsKeyStore, tlsTrustStore}) {
            if (!Files.isReadable(store)) {
                throw new IllegalArgumentException("vpki.replication.tls-*: cannot read " + store);
            }
        }
        String password;
        try {
            password = new String(SoftwareKeyStore.password(tlsPasswordFile, environment, TLS_PASSWORD_ENV));
        } catch (PkiException e) {
            throw new IllegalArgumentException("vpki.replication.tls-password-file: " + e.getMessage(), e);
        }
        return ReplicationConfig.Tls.of(tlsKeyStore, password, tlsTrustStore, password);
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
