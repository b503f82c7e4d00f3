package eu.vpki.common.replication;

import ch.qos.logback.classic.Level;
import eu.vpki.common.etsi.crypto.DeploymentCa;
import eu.vpki.common.etsi.crypto.DeploymentTrust;
import eu.vpki.common.etsi.crypto.ReplicaKey;
import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.LogCapture;
import eu.vpki.common.testing.RedisFixtureExtension;
import io.micrometer.core.instrument.Counter;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.blocks.MessageDispatcher;
import org.jgroups.blocks.RequestHandler;
import org.jgroups.blocks.RequestOptions;
import org.jgroups.blocks.ResponseMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Origin authentication with real replicas (TLS, signed commands, each with its own Redis): a member that
 * holds replica r0's valid certificate, and so joins the group, cannot get a command accepted as r1's,
 * neither by sending it (signed with r0's key, unsigned with a huge sequence number, or carrying r1's
 * certificate with r0's signature) nor by serving it to the replicas' anti-entropy from a claimed log.
 * Every forged command is refused, logged and counted ({@code vpki.replication.refused}), the state is
 * unchanged, and r1's next real command still gets the sequence number the forgeries tried to take.
 */
class ReplicationOriginTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String PASSWORD = "test-store-password";

    @RegisterExtension
    static final RedisFixtureExtension SERVERS = new RedisFixtureExtension(2);

    @TempDir
    Path dir;
    private TestCluster cluster;
    private JChannel rogue;

    @AfterEach
    void close() {
        if (rogue != null) {
            rogue.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aMemberWithR0sCertificate_cannotIssueCommandsAsR1_directlyNorThroughAntiEntropy() throws Exception {
        DeploymentCa ca = DeploymentCa.generate("vpki test deployment CA", Instant.now().minusSeconds(3600), Duration.ofDays(1), RANDOM);
        Path trust = dir.resolve("trust.p12");
        ca.writeTrustStore(trust, PASSWORD.toCharArray());
        for (String id : List.of("r0", "r1")) {
            ca.issueKeyStore(id, Instant.now().minusSeconds(3600), Duration.ofDays(1), RANDOM, dir.resolve(id + ".p12"), PASSWORD.toCharArray());
        }
        cluster = new TestCluster(SERVERS.fixtures(), Order.FIFO, Propagation.ASYNC)
                .withTls(id -> ReplicationConfig.Tls.of(dir.resolve(id + ".p12"), PASSWORD, trust, PASSWORD));
        cluster.startAll();
        Replica r0 = cluster.member(0).replica();
        Replica r1 = cluster.member(1).replica();
        CommandId last = r1.submit(List.of(new Operation.Put("t:idx:before", "1"))).join().token();
        r0.awaitApplied(last, Duration.ofSeconds(30));
        String digest = r0.stateDigest();
        assertThat(r1.stateDigest()).isEqualTo(digest);
        String r1Origin = r1.origin();
        long next = last.seq() + 1;

        // the rogue: r0's key store (a valid certificate of the deployment CA), so it joins
        ReplicationConfig.Tls r0Tls = ReplicationConfig.Tls.of(dir.resolve("r0.p12"), PASSWORD, trust, PASSWORD);
        OriginAuthentication r0Key = OriginAuthentication.of(TestCluster.credentials(r0Tls), "r0");
        List<Command> forgedLog = new ArrayList<>();
        for (long seq = next; seq < next + 3; seq++) {
            forgedLog.add(r0Key.sign(new Command(new CommandId(r1Origin, seq), System.currentTimeMillis(),
                    List.of(new Operation.Put("t:idx:forged-log-" + seq, "x")))));
        }
        int port = TestCluster.freePort();
        ReplicationConfig rogueConfig = new ReplicationConfig(cluster.clusterName(), "r0", Order.FIFO, Propagation.ASYNC, "127.0.0.1",
                port, new ReplicationConfig.Discovery.TcpPing(cluster.initialHosts() + ",127.0.0.1[" + port + "]"), 2, TestCluster.TIMEOUTS,
                ReplicationConfig.DEFAULT_APPLY_GROUPING, ReplicationConfig.DEFAULT_STATUS_INTERVAL, r0Tls);
        rogue = new JChannel(JGroupsStack.configure(rogueConfig)).name("rogue");
        MessageDispatcher dispatcher = new MessageDispatcher(rogue, new RequestHandler() {
            @Override
            public Object handle(Message message) {
                byte[] payload = message.getArray();
                if (CommandCodec.kind(payload) == CommandCodec.PULL) {
                    CommandCodec.Pull pull = CommandCodec.decodePull(payload);
                    return CommandCodec.encodeCommands(forgedLog.stream().filter(c -> c.id().seq() >= pull.from())
                            .map(CommandCodec::encode).toList());
                }
                return null;
            }
        });
        rogue.connect(cluster.clusterName());
        await().atMost(TestCluster.CONVERGENCE).until(() -> r0.viewSize() == 3 && r1.viewSize() == 3);

        try (LogCapture membership = LogCapture.of(Membership.class); LogCapture antiEntropy = LogCapture.of(AntiEntropy.class)) {
            // direct: signed with r0's certificate; unsigned with a huge sequence number; r1's certificate, r0's signature
            Command asR0 = r0Key.sign(new Command(new CommandId(r1Origin, next), System.currentTimeMillis(),
                    List.of(new Operation.Put("t:idx:forged-direct", "x"))));
            Command huge = new Command(new CommandId(r1Origin, 1_000_000_000L), System.currentTimeMillis(),
                    List.of(new Operation.Put("t:idx:forged-huge", "x")));
            byte[] r1Certificate = ReplicaKey.read(dir.resolve("r1.p12"), PASSWORD.toCharArray(),
                    DeploymentTrust.read(trust, PASSWORD.toCharArray()), RANDOM).certificate().encoded();
            Command borrowed = asR0.signed(new OriginSignature(r1Certificate, asR0.signature().signature()));
            for (Command forged : List.of(asR0, huge, borrowed)) {
                dispatcher.castMessage(null, new BytesMessage(null, CommandCodec.encode(forged)), new RequestOptions(ResponseMode.GET_NONE, 0));
            }
            await().atMost(TestCluster.CONVERGENCE).until(() -> refused(0, "direct") >= 3 && refused(1, "direct") >= 3);
            assertThat(membership.messages(Level.WARN)).anyMatch(m -> m.contains("signed with the certificate of replica r0, not of its origin's replica r1"))
                    .anyMatch(m -> m.contains("not signed by its origin"))
                    .anyMatch(m -> m.contains("its signature by r1 does not verify"));

            // anti-entropy: the rogue claims r1's origin applied 3 more commands, and serves forged ones from its "log"
            byte[] report = CommandCodec.encodeReport(new AppliedReport("r1", r1Origin, true, Map.of(r1Origin, next + 2),
                    Map.of(r1Origin, next)));
            await().atMost(TestCluster.CONVERGENCE).pollInterval(Duration.ofMillis(250)).until(() -> {
                dispatcher.castMessage(null, new BytesMessage(null, report), new RequestOptions(ResponseMode.GET_NONE, 0));
                return refused(0, "pull") >= 3 && refused(1, "pull") >= 3;
            });
            assertThat(antiEntropy.messages(Level.WARN)).anyMatch(m -> m.contains("fetched from") && m.contains("not of its origin's replica r1"));
        }
        rogue.close();

        assertThat(r0.stateDigest()).isEqualTo(digest);
        assertThat(r1.stateDigest()).isEqualTo(digest);
        for (int member = 0; member < 2; member++) {
            for (String key : List.of("t:idx:forged-direct", "t:idx:forged-huge", "t:idx:forged-log-" + next)) {
                assertThat(cluster.member(member).exists(key)).as(key + " at r" + member).isFalse();
            }
        }
        // r1's own next command takes the sequence number the forgeries claimed, and is applied everywhere
        cluster.awaitServing(0, 1);
        CommandId real = r1.submit(List.of(new Operation.Put("t:idx:after", "1"))).join().token();
        assertThat(real).isEqualTo(new CommandId(r1Origin, next));
        r0.awaitApplied(real, Duration.ofSeconds(30));
        assertThat(cluster.member(0).exists("t:idx:after")).isTrue();
    }

    private double refused(int member, String reason) {
        Counter counter = cluster.member(member).registry.find("vpki.replication.refused").tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }
}
