package eu.vpki.common.replication;

import org.jgroups.conf.ProtocolConfiguration;
import org.jgroups.conf.ProtocolStackConfigurator;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
                .contains("TCPPING", "pbcast.NAKACK2", "UNICAST3", "pbcast.STATE");
        assertThat(properties(stack, "TCP")).containsEntry("bind_addr", "127.0.0.1")
                .containsEntry("bind_port", "7811").containsEntry("tcp_nodelay", "true")
                .containsEntry("non_blocking_sends", "true"); // a peer cut off without a reset must not block senders
        assertThat(properties(stack, "TCPPING")).containsEntry("initial_hosts", "127.0.0.1[7811],127.0.0.1[7812]");
        assertThat(properties(stack, "FD_ALL3")).containsEntry("timeout", "8000ms").containsEntry("interval", "2000ms");
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
