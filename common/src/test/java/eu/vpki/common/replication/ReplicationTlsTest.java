package eu.vpki.common.replication;

import eu.vpki.common.etsi.crypto.DeploymentCa;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.ObjectMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Mutual TLS of the replication transport with real JGroups stacks (the replicas' own
 * {@code tcp-fifo.xml}): two replicas with certificates of the deployment CA form a group; a third
 * member with the right cluster name and discovery but no certificate of that CA (none at all, or one
 * of another CA) cannot join, nothing it sends reaches the replicas, and it can neither fetch a replica's
 * state (state transfer) nor send a replica a pull for its log (anti-entropy). Without TLS the same rogue
 * joins (the check can fail).
 */
class ReplicationTlsTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String PASSWORD = "test-store-password";
    private static final ReplicationConfig.Timeouts TIMEOUTS = new ReplicationConfig.Timeouts(Duration.ofSeconds(5),
            Duration.ofSeconds(20), Duration.ofMillis(500), Duration.ofSeconds(5));

    @TempDir
    Path dir;
    private final BareChannels channels = new BareChannels();

    @AfterEach
    void close() {
        channels.close();
    }

    @Test
    void aMemberWithoutACertificateOfTheDeploymentCa_cannotJoinNorSend() throws Exception {
        DeploymentCa ca = DeploymentCa.generate("vpki test deployment CA", Instant.now(), Duration.ofDays(1), RANDOM);
        Path trust = dir.resolve("trust.p12");
        ca.writeTrustStore(trust, PASSWORD.toCharArray());
        int[] ports = {TestCluster.freePort(), TestCluster.freePort(), TestCluster.freePort(), TestCluster.freePort()};
        String hosts = hosts(ports);
        String cluster = "tls-test-" + ports[0];

        List<Message> receivedByR1 = new CopyOnWriteArrayList<>();
        JChannel r1 = start(config("r1", ports[0], hosts).withTls(replicaTls(ca, "r1", trust)), cluster, receivedByR1);
        JChannel r2 = start(config("r2", ports[1], hosts).withTls(replicaTls(ca, "r2", trust)), cluster, new CopyOnWriteArrayList<>());
        await().atMost(Duration.ofSeconds(30)).until(() -> r1.getView().size() == 2 && r2.getView().size() == 2);

        // no certificate at all
        JChannel plain = start(config("rogue-plain", ports[2], hosts), cluster, new CopyOnWriteArrayList<>());
        // a certificate, but from another CA
        DeploymentCa other = DeploymentCa.generate("another CA", Instant.now(), Duration.ofDays(1), RANDOM);
        Path otherTrust = dir.resolve("other-trust.p12");
        other.writeTrustStore(otherTrust, PASSWORD.toCharArray());
        JChannel foreign = start(config("rogue-foreign", ports[3], hosts).withTls(replicaTls(other, "rogue-foreign", otherTrust)),
                cluster, new CopyOnWriteArrayList<>());

        assertThat(plain.getView().getMembers()).containsExactly(plain.getAddress());
        assertThat(foreign.getView().getMembers()).containsExactly(foreign.getAddress());
        plain.send(new ObjectMessage(null, "forged by rogue-plain"));
        foreign.send(new ObjectMessage(null, "forged by rogue-foreign"));
        r2.send(new ObjectMessage(null, "from r2"));
        await().atMost(Duration.ofSeconds(30)).until(() -> receivedByR1.stream().anyMatch(m -> "from r2".equals(m.getObject())));
        // nor ask for a page of a replica's state (state transfer) or for commands of its log (an anti-entropy pull)
        for (JChannel rogue : List.of(plain, foreign)) {
            rogue.send(new BytesMessage(r1.getAddress(), CommandCodec.encodeSnapshotRequest(SnapshotPage.Position.START)));
            rogue.send(new BytesMessage(r1.getAddress(), CommandCodec.encodePull(new CommandCodec.Pull("r1~1", 1, 512))));
        }
        r2.send(new ObjectMessage(null, "again from r2"));
        await().atMost(Duration.ofSeconds(30)).until(() -> receivedByR1.stream().anyMatch(m -> "again from r2".equals(m.getObject())));
        assertThat(r1.getView().getMembers()).containsExactlyInAnyOrder(r1.getAddress(), r2.getAddress());
        assertThat(receivedByR1).extracting(Message::getObject).containsOnly("from r2", "again from r2");
    }

    @Test
    void withoutTls_theSameRogueJoins() throws Exception {
        int[] ports = {TestCluster.freePort(), TestCluster.freePort(), TestCluster.freePort()};
        String hosts = hosts(ports);
        String cluster = "plain-test-" + ports[0];
        JChannel r1 = start(config("r1", ports[0], hosts), cluster, new CopyOnWriteArrayList<>());
        start(config("r2", ports[1], hosts), cluster, new CopyOnWriteArrayList<>());
        start(config("rogue-plain", ports[2], hosts), cluster, new CopyOnWriteArrayList<>());

        await().atMost(Duration.ofSeconds(30)).until(() -> r1.getView().size() == 3);
    }

    private ReplicationConfig.Tls replicaTls(DeploymentCa ca, String replicaId, Path trust) {
        Path keyStore = dir.resolve(replicaId + ".p12");
        ca.issueKeyStore(replicaId, Instant.now(), Duration.ofDays(1), RANDOM, keyStore, PASSWORD.toCharArray());
        return ReplicationConfig.Tls.of(keyStore, PASSWORD, trust, PASSWORD);
    }

    private static ReplicationConfig config(String id, int port, String hosts) {
        return BareChannels.config(id, port, hosts, TIMEOUTS);
    }

    private static String hosts(int[] ports) {
        StringBuilder hosts = new StringBuilder();
        for (int port : ports) {
            hosts.append(hosts.isEmpty() ? "" : ",").append("127.0.0.1[").append(port).append(']');
        }
        return hosts.toString();
    }

    private JChannel start(ReplicationConfig config, String cluster, List<Message> received) throws Exception {
        return channels.start(config, cluster, received::add);
    }
}
