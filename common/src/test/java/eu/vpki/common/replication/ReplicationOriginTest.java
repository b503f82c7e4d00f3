package eu.vpki.common.replication;

import ch.qos.logback.classic.Level;
import eu.vpki.common.error.ErrorCode;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * Origin and sender authentication with real replicas (TLS, signed commands and sealed anti-entropy
 * messages, each replica with its own Redis). A member that holds replica r0's valid certificate, and so
 * joins the group, cannot get a command accepted as r1's, neither by sending it (signed with r0's key,
 * unsigned with a huge sequence number, or carrying r1's certificate with r0's signature) nor by serving it
 * to the replicas' anti-entropy from a claimed log; and it cannot speak for r1 in the anti-entropy either: its
 * reports as r1 (unsealed, sealed as r1 with r0's key, or sealed as r0 claiming r1's replica id) are refused,
 * so the others do not trim their logs for r1 while r1 is away. Every forgery is refused, logged and counted
 * ({@code vpki.replication.refused}), and the state is unchanged.
 */
class ReplicationOriginTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String PASSWORD = "test-store-password";

    @RegisterExtension
    static final RedisFixtureExtension SERVERS = new RedisFixtureExtension(3);

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

    /** A deployment CA, its trust store and a key store for each of {@code ids}, in {@link #dir}. */
    private Path deployment(List<String> ids) {
        DeploymentCa ca = DeploymentCa.generate("vpki test deployment CA", Instant.now().minusSeconds(3600), Duration.ofDays(1), RANDOM);
        Path trust = dir.resolve("trust.p12");
        ca.writeTrustStore(trust, PASSWORD.toCharArray());
        for (String id : ids) {
            ca.issueKeyStore(id, Instant.now().minusSeconds(3600), Duration.ofDays(1), RANDOM, dir.resolve(id + ".p12"),
                    PASSWORD.toCharArray());
        }
        return trust;
    }

    /** The rogue member: r0's key store (a valid certificate of the deployment CA), so it joins the group. */
    private MessageDispatcher joinRogue(ReplicationConfig.Tls r0Tls, int expectedMembers, RequestHandler handler) throws Exception {
        int port = TestCluster.freePort();
        ReplicationConfig rogueConfig = new ReplicationConfig(cluster.clusterName(), "r0", Order.FIFO, Propagation.ASYNC, "127.0.0.1",
                port, new ReplicationConfig.Discovery.TcpPing(cluster.initialHosts() + ",127.0.0.1[" + port + "]"), expectedMembers,
                TestCluster.TIMEOUTS, ReplicationConfig.DEFAULT_APPLY_GROUPING, ReplicationConfig.DEFAULT_STATUS_INTERVAL, r0Tls);
        rogue = new JChannel(JGroupsStack.configure(rogueConfig)).name("rogue");
        MessageDispatcher dispatcher = new MessageDispatcher(rogue, handler);
        rogue.connect(cluster.clusterName());
        return dispatcher;
    }

    @Test
    void aMemberWithR0sCertificate_cannotIssueCommandsAsR1_directlyNorThroughAntiEntropy() throws Exception {
        Path trust = deployment(List.of("r0", "r1"));
        cluster = new TestCluster(SERVERS.fixtures().subList(0, 2), Order.FIFO, Propagation.ASYNC)
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
        // it seals what it says as r0, the replica whose key it holds (what it says as r1 the next test shows)
        SenderAuthentication sealedAsR0 = new SenderAuthentication(TestCluster.credentials(r0Tls), "r0", Clock.systemUTC());
        MessageDispatcher dispatcher = joinRogue(r0Tls, 2, new RequestHandler() {
            @Override
            public Object handle(Message message) {
                byte[] payload = message.getArray();
                if (CommandCodec.kind(payload) == CommandCodec.SEALED) {
                    byte[] inner = CommandCodec.decodeSealed(payload).message();
                    if (CommandCodec.kind(inner) == CommandCodec.PULL) {
                        CommandCodec.Pull pull = CommandCodec.decodePull(inner);
                        return sealedAsR0.seal(CommandCodec.encodeCommands(forgedLog.stream().filter(c -> c.id().seq() >= pull.from())
                                .map(CommandCodec::encode).toList()));
                    }
                }
                return null;
            }
        });
        sealedAsR0.start(rogue.getAddress());
        await().atMost(TestCluster.CONVERGENCE).until(() -> r0.viewSize() == 3 && r1.viewSize() == 3);

        try (LogCapture membership = LogCapture.of(MessageHandler.class); LogCapture antiEntropy = LogCapture.of(CommandFetcher.class)) {
            // direct: signed with r0's certificate; unsigned with a huge sequence number; r1's certificate, r0's signature
            Command asR0 = r0Key.sign(new Command(new CommandId(r1Origin, next), System.currentTimeMillis(),
                    List.of(new Operation.Put("t:idx:forged-direct", "x"))));
            Command huge = new Command(new CommandId(r1Origin, 1_000_000_000L), System.currentTimeMillis(),
                    List.of(new Operation.Put("t:idx:forged-huge", "x")));
            byte[] r1Certificate = ReplicaKey.read(dir.resolve("r1.p12"), PASSWORD.toCharArray(),
                    DeploymentTrust.read(trust, PASSWORD.toCharArray()), RANDOM).certificate().encoded();
            Command borrowed = asR0.signed(new OriginSignature(r1Certificate, asR0.signature().signature()));
            for (Command forged : List.of(asR0, huge, borrowed)) {
                dispatcher.castMessage(null, new BytesMessage(null, CommandCodec.encode(forged)),
                        new RequestOptions(ResponseMode.GET_NONE, 0));
            }
            await().atMost(TestCluster.CONVERGENCE).until(() -> refused(0, "direct") >= 3 && refused(1, "direct") >= 3);
            assertThat(membership.messages(Level.WARN))
                    .anyMatch(m -> m.contains("signed with the certificate of replica r0, not of its origin's replica r1"))
                    .anyMatch(m -> m.contains("not signed by its origin"))
                    .anyMatch(m -> m.contains("its signature by r1 does not verify"));

            // anti-entropy: the rogue, in its own name (r0, a new incarnation), claims it applied 3 more commands of r1's
            // origin, and serves forged ones from its "log"
            byte[] report = sealedAsR0
                    .seal(CommandCodec.encodeReport(new AppliedReport("r0", "r0~zzzzzzzz", true, Map.of(r1Origin, next + 2),
                            Map.of(r1Origin, next))));
            await().atMost(TestCluster.CONVERGENCE).pollInterval(Duration.ofMillis(250)).until(() -> {
                dispatcher.castMessage(null, new BytesMessage(null, report), new RequestOptions(ResponseMode.GET_NONE, 0));
                return refused(0, "pull") >= 3 && refused(1, "pull") >= 3;
            });
            assertThat(antiEntropy.messages(Level.WARN))
                    .anyMatch(m -> m.contains("fetched from") && m.contains("not of its origin's replica r1"));
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

    @Test
    void aMemberWithR0sCertificate_cannotReportAsR1_soNobodyTrimsWhatR1Lacks() throws Exception {
        Path trust = deployment(List.of("r0", "r1", "r2"));
        cluster = new TestCluster(SERVERS.fixtures(), Order.FIFO, Propagation.ASYNC)
                .withTls(id -> ReplicationConfig.Tls.of(dir.resolve(id + ".p12"), PASSWORD, trust, PASSWORD));
        Duration fastReports = Duration.ofMillis(100); // logs are trimmed 2 s after every member applied a command
        for (int i = 0; i < 3; i++) {
            cluster.start(i, TestCluster.TIMEOUTS, fastReports);
        }
        cluster.awaitServing(0, 1, 2);
        String r1Origin = cluster.member(1).replica().origin();
        cluster.member(1).stop();
        cluster.awaitViewSize(2, 0, 2);
        cluster.awaitServing(0, 2);
        Replica r0 = cluster.member(0).replica();
        CommandId lacked = cluster.submitWhenServing(0, List.of(new Operation.Put("t:idx:r1-lacks-this", "1"))).token();
        cluster.member(2).replica().awaitApplied(lacked, Duration.ofSeconds(30));
        // the group is 3 again with the rogue: were its reports taken as r1's, every "member" applied lacked, and the logs
        // would drop it 2 s later; r1 could then only come back by a snapshot
        ReplicationConfig.Tls r0Tls = ReplicationConfig.Tls.of(dir.resolve("r0.p12"), PASSWORD, trust, PASSWORD);
        OriginCredentials r0Key = TestCluster.credentials(r0Tls);
        SenderAuthentication claimingR1 = new SenderAuthentication(r0Key, "r1", Clock.systemUTC());
        SenderAuthentication asR0 = new SenderAuthentication(r0Key, "r0", Clock.systemUTC());
        MessageDispatcher dispatcher = joinRogue(r0Tls, 3, message -> null);
        claimingR1.start(rogue.getAddress());
        asR0.start(rogue.getAddress());
        await().atMost(TestCluster.CONVERGENCE).until(() -> r0.viewSize() == 3 && cluster.member(2).replica().viewSize() == 3);

        try (LogCapture membership = LogCapture.of(MessageHandler.class)) {
            await().atMost(TestCluster.CONVERGENCE).pollInterval(Duration.ofMillis(100)).until(() -> {
                byte[] asR1 = CommandCodec.encodeReport(new AppliedReport("r1", r1Origin, true, Map.of(lacked.origin(), lacked.seq()),
                        Map.of(), System.nanoTime(), Map.of()));
                // unsealed (what a replica without sender authentication took), sealed as r1 with r0's key, sealed as r0
                for (byte[] forged : List.of(asR1, claimingR1.seal(asR1), asR0.seal(asR1))) {
                    dispatcher.castMessage(null, new BytesMessage(null, forged), new RequestOptions(ResponseMode.GET_NONE, 0));
                }
                // 3 s of forgeries: longer than the trim delay (2 s) and its period (1 s)
                return refused(0, "sender") >= 90 && refused(2, "sender") >= 90;
            });
            assertThat(membership.messages(Level.WARN)).anyMatch(m -> m.contains("not signed by its sender"))
                    .anyMatch(m -> m.contains("claims to come from r1") && m.contains("certificate of replica r0"))
                    .anyMatch(m -> m.contains("a report of r1") && m.contains("signed by r0"));
        }
        for (int member : List.of(0, 2)) {
            assertThat(new CommandLog(cluster.member(member).pool, ReplicaClusterTest.KEYSPACE).first(lacked.origin()))
                    .as("r%d's log still holds what r1 lacks", member).isEqualTo(1);
        }
        rogue.close();

        // r1 comes back and fetches what it lacks from the logs (no snapshot)
        try (LogCapture antiEntropy = LogCapture.of(CommandFetcher.class)) {
            cluster.start(1, TestCluster.TIMEOUTS, fastReports);
            cluster.awaitServing(0, 1, 2);
            cluster.member(1).replica().awaitApplied(lacked, Duration.ofSeconds(30));
            cluster.awaitSameState(0, 1, 2);
            assertThat(antiEntropy.messages(Level.WARN)).noneMatch(m -> m.contains("taking a snapshot"));
        }
    }

    /**
     * A replica does not verify its own signature on the commands it sent when JGroups delivers them back byte for
     * byte ({@link SentCommands}): in both orders (under TOTAL order they come back through the sequencer) its
     * credentials check none of its own commands and every one of the other origin's, while the other replica checks
     * all of them. Under SYNC the origin opens the other replica's sealed confirmation of each command, and none of its
     * own: it confirms its own commands to itself with a value that never leaves it ({@link CommandSender#ownConfirmation}).
     */
    @ParameterizedTest
    @CsvSource({"FIFO,ASYNC", "TOTAL,SYNC"})
    void aReplicaChecksOtherOriginsCommands_butNotItsOwnComingBack(Order order, Propagation propagation) throws Exception {
        Path trust = deployment(List.of("r0", "r1"));
        Map<String, Map<String, AtomicInteger>> checked = new ConcurrentHashMap<>(); // checking replica -> origin replica -> commands
        Map<String, Map<String, AtomicInteger>> confirmations = new ConcurrentHashMap<>(); // opening replica -> signer -> answers
        Map<String, Map<String, AtomicInteger>> tagged = new ConcurrentHashMap<>(); // receiving replica -> origin replica -> commands
        cluster = new TestCluster(SERVERS.fixtures().subList(0, 2), order, propagation)
                .withTls(id -> ReplicationConfig.Tls.of(dir.resolve(id + ".p12"), PASSWORD, trust, PASSWORD))
                .withCredentials(credentials -> new CountingCredentials(credentials,
                        checked.computeIfAbsent(credentials.replicaId(), id -> new ConcurrentHashMap<>()),
                        confirmations.computeIfAbsent(credentials.replicaId(), id -> new ConcurrentHashMap<>()),
                        tagged.computeIfAbsent(credentials.replicaId(), id -> new ConcurrentHashMap<>())));
        cluster.startAll();
        cluster.awaitServing(0, 1);
        Replica r0 = cluster.member(0).replica();
        Replica r1 = cluster.member(1).replica();
        CommandId last = null;
        for (int i = 0; i < 20; i++) {
            last = r0.submit(List.of(new Operation.Put("t:idx:own-" + i, "1"))).join().token();
        }
        CommandId other = r1.submit(List.of(new Operation.Put("t:idx:other", "1"))).join().token();
        r1.awaitApplied(last, Duration.ofSeconds(30));
        r0.awaitApplied(other, Duration.ofSeconds(30));
        cluster.awaitSameState(0, 1);
        // each of the other origin's commands is checked once: by its signature, or by its certificate and tag
        assertThat(count(checked, "r0", "r0") + count(tagged, "r0", "r0")).as("r0 checking its own").isZero();
        assertThat(count(checked, "r0", "r1") + count(tagged, "r0", "r1")).as("r0 checking r1's").isEqualTo(1);
        assertThat(count(checked, "r1", "r0") + count(tagged, "r1", "r0")).as("r1 checking r0's").isEqualTo(20);
        assertThat(count(checked, "r1", "r1") + count(tagged, "r1", "r1")).as("r1 checking its own").isZero();
        if (propagation == Propagation.SYNC) {
            assertThat(confirmations.get("r0").getOrDefault("r0", new AtomicInteger()).get()).as("r0 opening its own confirmations")
                    .isZero();
            assertThat(confirmations.get("r0").get("r1").get()).as("r0 opening r1's confirmations").isGreaterThanOrEqualTo(20);
        }
    }

    /**
     * Issue #38: a command its own origin's certificate does not cover at the origin time (the replica's clock stepped
     * out of the certificate's validity, here two days ahead for one submit) would be refused by every replica; sent,
     * it spent its sequence number and every later command of that origin was held back behind it, at every replica
     * (GAP): nobody served again. Now the origin refuses it before numbering it ({@code NOT_SERVING}), and its next
     * command, made once its clock is back, is applied everywhere and every replica serves. Three replicas, FIFO +
     * ASYNC and TOTAL + SYNC.
     */
    @ParameterizedTest
    @CsvSource({"FIFO,ASYNC", "TOTAL,SYNC"})
    void aCommandItsOwnCertificateDoesNotCover_isNotSent_andTheGroupKeepsServing(Order order, Propagation propagation) {
        Path trust = deployment(List.of("r0", "r1", "r2"));
        SteppingClock r1Clock = new SteppingClock();
        cluster = new TestCluster(SERVERS.fixtures(), order, propagation)
                .withTls(id -> ReplicationConfig.Tls.of(dir.resolve(id + ".p12"), PASSWORD, trust, PASSWORD))
                .withClocks(id -> id.equals("r1") ? r1Clock : Clock.systemUTC());
        cluster.startAll();
        Replica r1 = cluster.member(1).replica();
        CommandId before = cluster.submitWhenServing(1, List.of(new Operation.Put("t:idx:before", "1"))).token();

        // a refusal because r1 does not serve at that moment (its lease, on a loaded machine) is tried again
        AtomicReference<Throwable> refused = new AtomicReference<>();
        await().atMost(TestCluster.CONVERGENCE).pollInterval(Duration.ofMillis(20)).until(() -> {
            r1Clock.stepForThisThread(Duration.ofDays(2)); // beyond the certificate's validity (one day)
            try {
                refused.set(catchThrowable(() -> r1.submit(List.of(new Operation.Put("t:idx:stepped", "1"))).join()));
            } finally {
                r1Clock.stepForThisThread(Duration.ZERO);
            }
            return !(refused.get() != null && refused.get().getCause() instanceof ReplicationException e
                    && (e.code() == ErrorCode.NO_MAJORITY || e.getMessage().contains("catching up")));
        });
        assertThat(refused.get()).as("the submit at the stepped clock").hasCauseInstanceOf(ReplicationException.class);

        CommandId after = cluster.submitWhenServing(1, List.of(new Operation.Put("t:idx:after", "1"))).token();
        assertThat(after.seq()).as("the refused command spent no sequence number").isEqualTo(before.seq() + 1);
        for (TestCluster.Member m : cluster.members()) {
            m.replica().awaitApplied(after, Duration.ofSeconds(30));
            assertThat(m.exists("t:idx:stepped")).as("at %s", m.id()).isFalse();
        }
        cluster.awaitServing(0, 1, 2);
        cluster.awaitSameState(0, 1, 2);
        assertThat(((ReplicationException) refused.get().getCause()).code()).as("refused at its origin, not sent")
                .isEqualTo(ErrorCode.NOT_SERVING);
    }

    /**
     * The system clock, moved by {@link #stepForThisThread} for the calls of one thread only (the test's, which
     * submits): the replica's own threads (reports, leases) keep the system time, so only the command made on that
     * thread carries the stepped time.
     */
    static final class SteppingClock extends Clock {
        private volatile Thread stepped;
        private volatile Duration step = Duration.ZERO;

        void stepForThisThread(Duration by) {
            step = by;
            stepped = by.isZero() ? null : Thread.currentThread();
        }

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            Instant now = Instant.now();
            return Thread.currentThread() == stepped ? now.plus(step) : now;
        }
    }

    /**
     * Per-receiver tags with real replicas ({@link ReceiverTags}): once an origin knows a peer's certificate (from the
     * peer's sealed reports), the peer accepts its commands by their tag, without an ECDSA verification; a replica
     * that joins later verifies by signature the commands it fetches from the logs (they carry no tags) and those
     * sent before the origin knew it, then takes the origin's commands by their tags too. Both orders, FIFO + ASYNC
     * and TOTAL + SYNC (where the sequencer relays the tagged message).
     */
    @ParameterizedTest
    @CsvSource({"FIFO,ASYNC", "TOTAL,SYNC"})
    void aReceiverAcceptsTaggedCommandsWithoutVerifying_andOneJoiningLaterVerifiesTheLogBySignature(Order order,
                                                                                                    Propagation propagation) {
        Path trust = deployment(List.of("r0", "r1", "r2"));
        Map<String, Map<String, AtomicInteger>> checked = new ConcurrentHashMap<>(); // checking replica -> origin replica -> commands
        Map<String, Map<String, AtomicInteger>> tagged = new ConcurrentHashMap<>(); // receiving replica -> origin replica -> commands
        cluster = new TestCluster(SERVERS.fixtures(), order, propagation)
                .withTls(id -> ReplicationConfig.Tls.of(dir.resolve(id + ".p12"), PASSWORD, trust, PASSWORD))
                .withCredentials(credentials -> new CountingCredentials(credentials,
                        checked.computeIfAbsent(credentials.replicaId(), id -> new ConcurrentHashMap<>()), new ConcurrentHashMap<>(),
                        tagged.computeIfAbsent(credentials.replicaId(), id -> new ConcurrentHashMap<>())));
        cluster.start(0);
        cluster.start(1);
        cluster.awaitServing(0, 1);
        Replica r0 = cluster.member(0).replica();
        Replica r1 = cluster.member(1).replica();
        // r0 tags for r1 once it accepted a sealed message (a report) of r1: until then r1 verifies by signature
        AtomicInteger submitted = new AtomicInteger();
        await().atMost(TestCluster.CONVERGENCE).pollInterval(Duration.ofMillis(100)).until(() -> {
            CommandId id = r0.submit(List.of(new Operation.Put("t:idx:early-" + submitted.incrementAndGet(), "1"))).join().token();
            r1.awaitApplied(id, Duration.ofSeconds(30));
            return count(tagged, "r1", "r0") > 0;
        });
        int signaturesBefore = count(checked, "r1", "r0");
        int tagsBefore = count(tagged, "r1", "r0");
        assertThat(signaturesBefore + tagsBefore).as("r1 checked each of r0's commands once").isEqualTo(submitted.get());
        CommandId last = null;
        for (int i = 0; i < 20; i++) {
            last = r0.submit(List.of(new Operation.Put("t:idx:tagged-" + i, "1"))).join().token();
        }
        r1.awaitApplied(last, Duration.ofSeconds(30));
        assertThat(count(checked, "r1", "r0")).as("r1's verifications of r0's signatures").isEqualTo(signaturesBefore);
        assertThat(count(tagged, "r1", "r0")).as("r0's commands r1 took by their tags").isEqualTo(tagsBefore + 20);
        int total = submitted.get() + 20;

        // r2 joins: it fetches r0's commands from the logs (no tags) and verifies every one by signature
        cluster.start(2);
        Replica r2 = cluster.member(2).replica();
        r2.awaitApplied(last, Duration.ofSeconds(30));
        assertThat(count(checked, "r2", "r0")).as("r2's verifications of r0's logged commands").isGreaterThanOrEqualTo(total);
        assertThat(count(tagged, "r2", "r0")).isZero();
        // ... and takes r0's later commands by their tags once r0 knows its certificate
        await().atMost(TestCluster.CONVERGENCE).pollInterval(Duration.ofMillis(100)).until(() -> {
            CommandId id = r0.submit(List.of(new Operation.Put("t:idx:late-" + submitted.incrementAndGet(), "1"))).join().token();
            r2.awaitApplied(id, Duration.ofSeconds(30));
            return count(tagged, "r2", "r0") > 0;
        });
        int r2Signatures = count(checked, "r2", "r0");
        CommandId after = r0.submit(List.of(new Operation.Put("t:idx:after-join", "1"))).join().token();
        r2.awaitApplied(after, Duration.ofSeconds(30));
        r1.awaitApplied(after, Duration.ofSeconds(30));
        assertThat(count(checked, "r2", "r0")).isEqualTo(r2Signatures);
        assertThat(count(checked, "r1", "r0")).as("r1 never verified r0's signature again").isEqualTo(signaturesBefore);
        cluster.awaitSameState(0, 1, 2);
    }

    private static int count(Map<String, Map<String, AtomicInteger>> counts, String replica, String origin) {
        AtomicInteger count = counts.getOrDefault(replica, Map.of()).get(origin);
        return count == null ? 0 : count.get();
    }

    @Test
    void aConfirmationIsOwnOnlyFromItsOwnAddressWithItsOwnValue() {
        org.jgroups.Address self = org.jgroups.util.UUID.randomUUID();
        org.jgroups.Address other = org.jgroups.util.UUID.randomUUID();
        byte[] value = new byte[32];
        RANDOM.nextBytes(value);
        assertThat(CommandSender.ownConfirmation(self, self, value.clone(), value)).isTrue();
        assertThat(CommandSender.ownConfirmation(other, self, value.clone(), value)).isFalse();
        assertThat(CommandSender.ownConfirmation(null, self, value.clone(), value)).isFalse();
        byte[] changed = value.clone();
        changed[31] ^= 1;
        assertThat(CommandSender.ownConfirmation(self, self, changed, value)).isFalse();
        assertThat(CommandSender.ownConfirmation(self, self, new byte[0], value)).isFalse();
    }

    private double refused(int member, String reason) {
        Counter counter = cluster.member(member).registry.find("vpki.replication.refused").tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }
}
