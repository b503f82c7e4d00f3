package eu.vpki.common.replication;

import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.ObjectMessage;
import org.jgroups.conf.ProtocolConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@link PeerDelay} in the replicas' own stack ({@code tcp-fifo.xml}, real TCP on loopback): a member
 * configured with a delay for one peer gets that peer's messages at least the delay after they were
 * sent, in the order sent; the stack has the protocol only when a delay is configured.
 */
class PeerDelayTest {
    private static final ReplicationConfig.Timeouts TIMEOUTS = new ReplicationConfig.Timeouts(Duration.ofSeconds(5),
            Duration.ofSeconds(20), Duration.ofMillis(500), Duration.ofSeconds(5));
    private static final long DELAY_MS = 300;
    private final BareChannels channels = new BareChannels();

    @AfterEach
    void close() {
        channels.close();
    }

    @Test
    void messagesFromADelayedPeer_arriveAtLeastTheDelayLater_inOrder() throws Exception {
        int[] ports = {TestCluster.freePort(), TestCluster.freePort()};
        String hosts = "127.0.0.1[" + ports[0] + "],127.0.0.1[" + ports[1] + "]";
        String cluster = "peer-delay-" + ports[0];
        Map<Integer, Long> sentAt = new ConcurrentHashMap<>();
        Map<Integer, Long> delayOnArrival = new ConcurrentHashMap<>();
        List<Integer> order = java.util.Collections.synchronizedList(new ArrayList<>());
        JChannel sender = start(config("r1", ports[0], hosts), cluster, m -> {
        });
        start(config("r2", ports[1], hosts).withEmulatedDelays(Map.of("r1", Duration.ofMillis(DELAY_MS))), cluster, m -> {
            if (m.getObject() instanceof Integer n) {
                delayOnArrival.put(n, System.nanoTime() - sentAt.get(n));
                order.add(n);
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> sender.getView().size() == 2);

        int count = 50;
        for (int i = 0; i < count; i++) {
            sentAt.put(i, System.nanoTime());
            sender.send(new ObjectMessage(null, i));
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> order.size() == count);
        assertThat(order).as("the sender's order is kept").isEqualTo(java.util.stream.IntStream.range(0, count).boxed().toList());
        assertThat(delayOnArrival.values()).as("every message arrives at least the delay after it was sent")
                .allSatisfy(nanos -> assertThat(nanos).isGreaterThanOrEqualTo(DELAY_MS * 1_000_000));
    }

    @Test
    void stack_hasPeerDelayAboveTheTransportOnlyWhenConfigured() {
        ReplicationConfig plain = config("r1", 7811, "127.0.0.1[7811]");
        Map<String, Duration> delays = new LinkedHashMap<>();
        delays.put("ea-1", Duration.ofMillis(70));
        delays.put("operator-0", Duration.ZERO);
        List<ProtocolConfiguration> delayed = JGroupsStack.configure(plain.withEmulatedDelays(delays)).getProtocolStack();

        assertThat(JGroupsStack.configure(plain).getProtocolStack()).extracting(ProtocolConfiguration::getProtocolName)
                .doesNotContain(PeerDelay.class.getName());
        assertThat(delayed.get(0).getProtocolName()).isEqualTo("TCP");
        assertThat(delayed.get(1).getProtocolName()).isEqualTo(PeerDelay.class.getName());
        assertThat(delayed.get(1).getProperties()).containsEntry("delays", "ea-1=70,operator-0=0");
        assertThat(PeerDelay.parse("ea-1=70,operator-0=0")).containsExactly(Map.entry("ea-1", 70L), Map.entry("operator-0", 0L));
    }

    @Test
    void config_refusesADelayWhoseRoundTripReachesTheLease() {
        ReplicationConfig c = config("r1", 7811, "127.0.0.1[7811]");

        assertThatThrownBy(() -> c.withEmulatedDelays(Map.of("r2", c.lease().dividedBy(2))))
                .hasMessageContaining("emulated-delays.r2");
        assertThatThrownBy(() -> c.withEmulatedDelays(Map.of("r2", Duration.ofMillis(-1)))).hasMessageContaining("emulated-delays.r2");
        assertThat(c.withEmulatedDelays(Map.of("r2", Duration.ofMillis(70))).emulatedDelays()).containsEntry("r2", Duration.ofMillis(70));
    }

    private static ReplicationConfig config(String id, int port, String hosts) {
        return BareChannels.config(id, port, hosts, TIMEOUTS);
    }

    private JChannel start(ReplicationConfig config, String cluster, java.util.function.Consumer<Message> received) throws Exception {
        return channels.start(config, cluster, received);
    }
}
