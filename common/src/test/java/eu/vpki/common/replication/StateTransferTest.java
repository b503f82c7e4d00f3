package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.testing.RedisFixtureExtension;
import org.jgroups.Address;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Issue #38, "A replaced replica joins a group holding 1,000,000 enrolled stations ... while every other replica keeps
 * serving": the joiner's side of the paged state transfer ({@link StateTransfer}) against a provider that keeps applying
 * between pages, on two real redis-servers. The provider's pages come from its Redis through {@link
 * RedisStateMachine#readSnapshotPage} as its server thread reads them; only the channel is left out.
 */
class StateTransferTest {
    @RegisterExtension
    static final RedisFixtureExtension SERVERS = new RedisFixtureExtension(2);

    private static final ReplicatedKeyspace KEYSPACE = ReplicatedKeyspace.of("t:rec:", "t:set:", "t:idx:");
    /** Small pages, so that a few hundred keys make many of them. */
    private static final long PAGE_BYTES = 2_048;
    private static final String BIG_SET = "t:set:big";

    private JedisPool providerPool;
    private JedisPool joinerPool;
    private RedisStateMachine provider;
    private RedisStateMachine joiner;
    private AppliedWatermarks watermarks;
    private Applier applier;
    private ReplicationConfig config;
    private ReplicationMetrics metrics;
    private final List<String> progress = new ArrayList<>();
    private final Map<String, Long> providerSeq = new HashMap<>();

    @BeforeEach
    void start() {
        providerPool = SERVERS.fixtures().get(0).newPool();
        joinerPool = SERVERS.fixtures().get(1).newPool();
        for (JedisPool pool : List.of(providerPool, joinerPool)) {
            try (Jedis jedis = pool.getResource()) {
                jedis.flushAll();
            }
        }
        provider = new RedisStateMachine(providerPool, KEYSPACE);
        joiner = new RedisStateMachine(joinerPool, KEYSPACE);
        config = DrivenMember.threeMembers();
        metrics = DrivenMember.metrics(config, "j~1");
        watermarks = new AppliedWatermarks();
        applier = new Applier("j~1", Duration.ZERO, joiner, watermarks, metrics, Clock.systemUTC(), failure -> {
        });
        applier.start();
    }

    @AfterEach
    void stop() {
        applier.stop();
        providerPool.close();
        joinerPool.close();
    }

    /** Applies the provider's next command of {@code origin}, with {@code operations}. */
    private void provide(String origin, Operation... operations) {
        long seq = providerSeq.merge(origin, 1L, Long::sum);
        assertThat(provider.apply(List.of(new Command(new CommandId(origin, seq), 0, List.of(operations)))))
                .containsExactly(RedisStateMachine.ApplyOutcome.APPLIED);
    }

    /** The provider's state: 300 records, 300 index strings, a set of 2,500 members (sent in parts) and small sets. */
    private void fillProvider() {
        for (int i = 0; i < 300; i++) {
            provide("a~1", new Operation.PutIfNewer("t:rec:" + i, 10, Map.of("status", "ACTIVE", "n", Integer.toString(i))),
                    new Operation.Put("t:idx:" + i, "rec" + i), new Operation.SetAdd("t:set:small" + (i % 7), "m" + i));
        }
        for (int i = 0; i < 2_500; i += 50) {
            List<Operation> adds = new ArrayList<>();
            for (int j = i; j < i + 50; j++) {
                adds.add(new Operation.SetAdd(BIG_SET, "station-" + j));
            }
            provide("b~1", adds.toArray(Operation[]::new));
        }
    }

    /** The provider's server, answering page requests from its Redis; {@code beforePage} runs before page n is read. */
    private AntiEntropy.Peers peers(IntConsumer beforePage) {
        AtomicInteger served = new AtomicInteger();
        return new DrivenMember.SilentPeers() {
            @Override
            public CompletableFuture<byte[]> snapshotPage(Address from, byte[] request) {
                try {
                    beforePage.accept(served.getAndIncrement());
                    SnapshotPage.Position position = CommandCodec.decodeSnapshotRequest(request);
                    return CompletableFuture.completedFuture(
                            CommandCodec.encodeSnapshotPage(provider.readSnapshotPage(position, PAGE_BYTES)));
                } catch (RuntimeException e) {
                    return CompletableFuture.failedFuture(e);
                }
            }
        };
    }

    private StateTransfer transfer(AntiEntropy.Peers peers) {
        return new StateTransfer(config, applier, watermarks, joiner, peers, metrics, progress::add, System::nanoTime);
    }

    /** The commands the provider applied above {@code applied}, from its log, as a peer's answers to pulls hand them on. */
    private List<Command> providerLogAbove(Map<String, Long> applied) {
        CommandLog log = new CommandLog(providerPool, KEYSPACE);
        List<Command> commands = new ArrayList<>();
        for (String origin : provider.appliedSeqs().keySet()) {
            for (byte[] encoded : log.read(origin, applied.getOrDefault(origin, 0L) + 1, Long.MAX_VALUE / 2, 100_000,
                    Long.MAX_VALUE)) {
                commands.add(CommandCodec.decode(encoded));
            }
        }
        return commands;
    }

    @Test
    void aProviderThatKeepsApplyingBetweenPages_andTheCommandsAfterItsTable_giveItsStateExactly() throws Exception {
        fillProvider();
        Map<String, Long> table = provider.appliedSeqs();
        AtomicInteger changes = new AtomicInteger();
        // between pages, the provider keeps applying what a busy group writes: records read already and not yet read,
        // deletions, members removed from and added to the large set while it is sent in parts, new keys, a new origin
        AntiEntropy.Peers busy = peers(page -> {
            if (page == 0) {
                return;
            }
            int k = page * 37 % 300;
            provide("a~1", new Operation.PutIfNewer("t:rec:" + k, 10 + page, Map.of("status", "SUSPENDED")),
                    new Operation.PutIfNewer("t:rec:" + (299 - k), 10 + page, Map.of("status", "REVOKED"), true),
                    new Operation.DeleteIfNewer("t:rec:" + (k + 1) % 300, 100 + page),
                    new Operation.Put("t:idx:new" + page, "v" + page));
            provide("b~1", new Operation.SetRemove(BIG_SET, "station-" + page * 13), new Operation.SetAdd(BIG_SET, "late-" + page),
                    new Operation.SetRemove("t:set:small" + page % 7, "m" + k));
            provide("c~1", new Operation.SetAdd("t:set:c", "c" + page));
            changes.addAndGet(3);
        });

        transfer(busy).run(new UUID(0, 1), "provider");

        assertThat(changes.get()).as("commands the provider applied during the transfer").isGreaterThan(30);
        assertThat(joiner.appliedSeqs()).as("the table read before the first key").isEqualTo(table);
        assertThat(joiner.incompleteState()).isEmpty();
        assertThat(joiner.digest()).as("a fuzzy copy: some keys newer than the table").isNotEqualTo(provider.digest());
        try (Jedis jedis = joinerPool.getResource()) {
            assertThat(jedis.scard(BIG_SET)).as("the large set, sent in parts").isGreaterThan(2_400);
        }
        assertThat(progress).last().asString().contains("keys in").contains("pages");

        // what the anti-entropy then does: fetch what the provider applied after its table, and apply it (again)
        applier.recover(providerLogAbove(table));
        await().atMost(Duration.ofSeconds(30)).until(() -> watermarks.snapshot().equals(provider.appliedSeqs()));
        assertThat(joiner.digest()).isEqualTo(provider.digest());
    }

    @Test
    void aProviderWhoseTableLacksWhatTheJoinerApplied_isRefused_andNothingIsReplaced() throws Exception {
        fillProvider();
        // the joiner applied a~1 one further than the provider, and an origin the provider never saw
        List<Command> mine = new ArrayList<>();
        for (int i = 1; i <= 301; i++) {
            mine.add(new Command(new CommandId("a~1", i), 0, List.of(new Operation.Put("t:idx:j" + i, "v"))));
        }
        mine.add(new Command(new CommandId("z~1", 1), 0, List.of(new Operation.Put("t:idx:z", "v"))));
        applier.recover(mine);
        await().atMost(Duration.ofSeconds(30)).until(() -> watermarks.appliedSeq("z~1") == 1 && watermarks.appliedSeq("a~1") == 301);
        String before = joiner.digest();

        assertThatThrownBy(() -> transfer(peers(page -> {
        })).run(new UUID(0, 1), "provider"))
                .isInstanceOfSatisfying(ReplicationException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.STATE_TRANSFER_FAILED))
                .hasMessageContaining("not replaced");

        assertThat(joiner.digest()).isEqualTo(before);
        assertThat(joiner.incompleteState()).isEmpty();
        assertThat(applier.replacingState()).as("applies again").isFalse();
        applier.recover(List.of(new Command(new CommandId("z~1", 2), 0, List.of(new Operation.Put("t:idx:z2", "v")))));
        await().atMost(Duration.ofSeconds(30)).until(() -> watermarks.appliedSeq("z~1") == 2);
    }

    @Test
    void aTransferThatBreaksOff_leavesTheStateMarkedIncomplete_andTheNextOneCompletesIt() throws Exception {
        fillProvider();
        AntiEntropy.Peers failing = peers(page -> {
            if (page >= 4) {
                throw new IllegalStateException("the provider is gone");
            }
        });

        assertThatThrownBy(() -> transfer(failing).run(new UUID(0, 1), "provider"))
                .isInstanceOf(ReplicationException.class).hasMessageContaining("3 attempts");

        RedisStateMachine restarted = new RedisStateMachine(joinerPool, KEYSPACE);
        assertThat(restarted.incompleteState()).as("after a restart too").isPresent();
        assertThat(restarted.appliedSeqs()).as("no table claims what the part lacks").isEmpty();
        assertThat(applier.replacingState()).as("drops what it is given until a transfer completes").isTrue();

        transfer(peers(page -> {
        })).run(new UUID(0, 2), "another provider");

        assertThat(joiner.incompleteState()).isEmpty();
        assertThat(joiner.digest()).isEqualTo(provider.digest());
        assertThat(applier.replacingState()).isFalse();
    }

    @Test
    void whileItReplacesTheState_theApplierDropsDeliveriesAndHoldsNothing() throws Exception {
        fillProvider();
        AtomicInteger dropped = new AtomicInteger();
        AntiEntropy.Peers slow = peers(page -> {
            if (page == 2) {
                // a live command arrives mid-transfer: dropped (not held, not remembered as received)
                applier.deliver(new Command(new CommandId("a~1", 5_000), 0, List.of(new Operation.Put("t:idx:live", "v"))), null);
                dropped.set((int) applier.discarded());
            }
        });

        transfer(slow).run(new UUID(0, 1), "provider");

        assertThat(dropped.get()).isEqualTo(1);
        assertThat(applier.received("a~1")).as("not remembered as received: the anti-entropy fetches it").isLessThan(5_000);
        assertThat(applier.gaps()).isEmpty();
        try (Jedis jedis = joinerPool.getResource()) {
            assertThat(jedis.exists("t:idx:live")).isFalse();
        }
    }
}
