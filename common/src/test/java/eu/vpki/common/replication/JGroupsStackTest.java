package eu.vpki.common.replication;

import eu.vpki.common.testing.TestPorts;
import org.jgroups.JChannel;
import org.jgroups.conf.ProtocolConfiguration;
import org.jgroups.conf.ProtocolStackConfigurator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class JGroupsStackTest {

    private static ReplicationConfig config(ReplicationConfig.Order order, ReplicationConfig.Discovery discovery) {
        return new ReplicationConfig("c", "r1", order, ReplicationConfig.Propagation.SYNC, "127.0.0.1", 7811,
                discovery, 3, new ReplicationConfig.Timeouts(Duration.ofSeconds(3), Duration.ofSeconds(2),
                        Duration.ofMillis(500), Duration.ofSeconds(8)));
    }

    private static List<String> names(ProtocolStackConfigurator stack) {
        return stack.getProtocolStack().stream().map(ProtocolConfiguration::getProtocolName).toList();
    }

    private static Map<String, String> properties(ProtocolStackConfigurator stack, String protocol) {
        return stack.getProtocolStack().stream().filter(p -> p.getProtocolName().equals(protocol))
                .findFirst().orElseThrow().getProperties();
    }

    @Test
    void fifoStack_hasNoSequencerAndUsesTheConfiguredTransport() {
        ProtocolStackConfigurator stack = JGroupsStack.configure(config(ReplicationConfig.Order.FIFO,
                new ReplicationConfig.Discovery.TcpPing("127.0.0.1[7811],127.0.0.1[7812]")));

        assertThat(names(stack)).doesNotContain("SEQUENCER", "dns.DNS_PING", "aws.S3_PING")
                .contains("TCPPING", "pbcast.NAKACK2", "UNICAST3")
                .doesNotContain("pbcast.STATE", "BARRIER"); // state transfer runs over the sealed request path (StateTransfer)
        assertThat(properties(stack, "TCP")).containsEntry("bind_addr", "127.0.0.1")
                .containsEntry("bind_port", "7811").containsEntry("tcp_nodelay", "true")
                .containsEntry("non_blocking_sends", "true"); // a peer cut off without a reset must not block senders
        assertThat(properties(stack, "TCPPING")).containsEntry("initial_hosts", "127.0.0.1[7811],127.0.0.1[7812]");
        assertThat(properties(stack, "FD_ALL3")).containsEntry("timeout", "8000ms").containsEntry("interval", "2000ms");
    }

    /**
     * Issue #38: a running member listens on no socket but its transport's. FD_SOCK2 (in both stacks until then)
     * listened on the transport port + 100 on every interface, outside the transport's TLS, and its reader allocated
     * whatever length a peer announced. Checked on a connected channel of each stack, through JGroups (no such
     * protocol) and through the kernel (the listening TCP sockets this JVM opened: /proc/self/fd and /proc/net/tcp*).
     */
    @ParameterizedTest
    @EnumSource(ReplicationConfig.Order.class)
    void runningStack_listensOnlyOnTheTransportPort(ReplicationConfig.Order order) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")) && Files.exists(Path.of("/proc/self/net/tcp")),
                "reads the kernel's socket tables (Linux)");
        int port = TestPorts.free();
        ReplicationConfig config = new ReplicationConfig("stack-" + port, "r1", order, ReplicationConfig.Propagation.SYNC, "127.0.0.1",
                port, new ReplicationConfig.Discovery.TcpPing("127.0.0.1[" + port + "]"), 1, new ReplicationConfig.Timeouts(
                        Duration.ofSeconds(3), Duration.ofSeconds(20), Duration.ofMillis(500), Duration.ofSeconds(8)));
        Set<Integer> before = listeningPortsOfThisProcess();
        try (JChannel channel = new JChannel(JGroupsStack.configure(config))) {
            channel.connect(config.clusterName());

            Set<Integer> opened = new TreeSet<>(listeningPortsOfThisProcess());
            opened.removeAll(before);
            assertThat(opened).as("ports this member listens on (its transport's: %s)", port).containsExactly(port);
            assertThat(channel.getProtocolStack().getProtocols()).extracting(p -> p.getClass().getSimpleName())
                    .doesNotContain("FD_SOCK", "FD_SOCK2").contains("FD_ALL3");
        }
    }

    /** The ports of the listening TCP sockets (IPv4 and IPv6) this process holds open. */
    private static Set<Integer> listeningPortsOfThisProcess() throws IOException {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor was closed while listing
                }
            }
        }
        Set<Integer> ports = new TreeSet<>();
        for (String table : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
            Path path = Path.of(table);
            if (!Files.exists(path)) {
                continue;
            }
            // readAllLines, not readString: on this kernel readString returns the first byte of a /proc file only
            List<String> lines = Files.readAllLines(path);
            for (String line : lines.subList(1, lines.size())) {
                String[] fields = line.trim().split("\\s+");
                boolean listening = "0A".equals(fields[3]);
                if (listening && inodes.contains(fields[9])) {
                    ports.add(Integer.parseInt(fields[1].substring(fields[1].indexOf(':') + 1), 16));
                }
            }
        }
        return ports;
    }

    @Test
    void totalStack_putsSequencerAboveNakack2AndUnicast3() {
        List<String> names = names(JGroupsStack.configure(config(ReplicationConfig.Order.TOTAL,
                new ReplicationConfig.Discovery.TcpPing("127.0.0.1[7811]"))));

        assertThat(names.indexOf("SEQUENCER")).isGreaterThan(names.indexOf("pbcast.NAKACK2"))
                .isGreaterThan(names.indexOf("UNICAST3"));
    }

    @Test
    void dnsDiscovery_replacesTcpping() {
        ProtocolStackConfigurator stack = JGroupsStack.configure(config(ReplicationConfig.Order.FIFO,
                new ReplicationConfig.Discovery.DnsPing("_jgroups._tcp.ea.svc")));

        assertThat(names(stack)).contains("dns.DNS_PING").doesNotContain("TCPPING", "aws.S3_PING");
        assertThat(properties(stack, "dns.DNS_PING")).containsEntry("dns_query", "_jgroups._tcp.ea.svc")
                .containsEntry("dns_record_type", "SRV");
    }

    @Test
    void s3Discovery_keepsOnlyS3Ping() {
        ProtocolStackConfigurator stack = JGroupsStack.configure(config(ReplicationConfig.Order.FIFO,
                new ReplicationConfig.Discovery.S3Ping("vpki-ping", "eu-central-1")));

        assertThat(names(stack)).contains("aws.S3_PING").doesNotContain("TCPPING", "dns.DNS_PING");
        assertThat(properties(stack, "aws.S3_PING")).containsEntry("bucket_name", "vpki-ping")
                .containsEntry("region_name", "eu-central-1");
    }

    @Test
    void substitute_escapesValuesAndRejectsUnknownPlaceholders() {
        assertThat(JGroupsStack.substitute("<a v=\"${x}\"/>", Map.of("x", "a\"&<b>")))
                .isEqualTo("<a v=\"a&quot;&amp;&lt;b&gt;\"/>");
        assertThatThrownBy(() -> JGroupsStack.substitute("${unknown}", Map.of()))
                .hasMessageContaining("unknown");
    }
}
