package eu.vpki.common.replication;

import eu.vpki.common.testing.RedisFixture;
import eu.vpki.common.testing.RedisFixtureExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static eu.vpki.common.replication.RedisStateMachine.ApplyOutcome.APPLIED;
import static eu.vpki.common.replication.RedisStateMachine.ApplyOutcome.DUPLICATE;
import static eu.vpki.common.replication.RedisStateMachine.ApplyOutcome.GAP;
import static eu.vpki.common.replication.RedisStateMachine.ApplyOutcome.REJECTED;
import static org.assertj.core.api.Assertions.assertThat;

class RedisStateMachineTest {

    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();

    private static final ReplicatedKeyspace KEYSPACE = ReplicatedKeyspace.of("t:rec:", "t:set:", "t:idx:");

    private JedisPool pool;
    private RedisStateMachine stateMachine;
    private CommandLog log;

    @BeforeEach
    void connect() {
        pool = REDIS.fixture().newPool();
        stateMachine = new RedisStateMachine(pool, KEYSPACE);
        log = new CommandLog(pool, KEYSPACE);
    }

    @AfterEach
    void disconnect() {
        pool.close();
    }

    private static Command command(String origin, long seq, Operation... operations) {
        return new Command(new CommandId(origin, seq), 0, List.of(operations));
    }

    private Map<String, String> hash(String key) {
        try (Jedis jedis = pool.getResource()) {
            return jedis.hgetAll(key);
        }
    }

    @Test
    void apply_sameCommandTwice_appliesOnce() {
        Command add = command("a", 1, new Operation.SetAdd("t:set:s", "x"));
        Command remove = command("a", 2, new Operation.SetRemove("t:set:s", "x"));

        assertThat(stateMachine.apply(List.of(add, remove))).containsExactly(APPLIED, APPLIED);
        assertThat(stateMachine.apply(List.of(add))).containsExactly(DUPLICATE);

        try (Jedis jedis = pool.getResource()) {
            assertThat(jedis.smembers("t:set:s")).isEmpty();
        }
        assertThat(stateMachine.appliedSeqs()).containsEntry("a", 2L);
    }

    @Test
    void apply_olderSeqOfAnOrigin_isSkipped() {
        for (long seq = 1; seq <= 5; seq++) {
            stateMachine.apply(List.of(command("a", seq, new Operation.Put("t:idx:k", "v" + seq))));
        }

        assertThat(stateMachine.apply(List.of(command("a", 4, new Operation.Put("t:idx:k", "four")))))
                .containsExactly(DUPLICATE);
        try (Jedis jedis = pool.getResource()) {
            assertThat(jedis.get("t:idx:k")).isEqualTo("v5");
        }
    }

    @Test
    void apply_commandWhosePredecessorIsMissing_isAGapAndWritesNothing() {
        stateMachine.apply(List.of(command("a", 1, new Operation.Put("t:idx:one", "1"))));

        assertThat(stateMachine.apply(List.of(command("a", 3, new Operation.Put("t:idx:three", "3")),
                command("b", 2, new Operation.Put("t:idx:b2", "2"))))).containsExactly(GAP, GAP);

        try (Jedis jedis = pool.getResource()) {
            assertThat(jedis.exists("t:idx:three")).isFalse();
            assertThat(jedis.exists("t:idx:b2")).isFalse();
        }
        assertThat(stateMachine.appliedSeqs()).isEqualTo(Map.of("a", 1L));
        assertThat(log.first("a")).isEqualTo(1);
        assertThat(log.first("b")).isZero();
    }

    @Test
    void apply_logsEachCommandAsEncoded_forPeersThatLackIt() {
        Command first = command("a", 1, new Operation.Put("t:idx:one", "1"));
        Command rejected = command("a", 2, new Operation.SetAdd("t:idx:one", "not a set"));
        Command third = command("a", 3, new Operation.PutIfNewer("t:rec:r", 1, Map.of("f", "Grüße")));
        stateMachine.apply(List.of(first, rejected, third));

        assertThat(log.read("a", 1, 3, 10, 1 << 20)).extracting(CommandCodec::decode).containsExactly(first, rejected, third);
        assertThat(log.read("a", 2, 9, 1, 1 << 20)).extracting(CommandCodec::decode).containsExactly(rejected);
        assertThat(log.read("a", 1, 3, 10, 1)).as("past the first, at most about maxBytes").hasSize(1);

        log.trimThrough("a", 2);

        assertThat(log.first("a")).isEqualTo(3);
        assertThat(log.read("a", 1, 3, 10, 1 << 20)).extracting(CommandCodec::decode).containsExactly(third);
    }

    @Test
    void terminalPut_winsOverEveryNonTerminalWrite_inAnyOrder() {
        Operation revoked = new Operation.PutIfNewer("t:rec:s", 5, Map.of("status", "REVOKED"), true);
        Operation laterChange = new Operation.PutIfNewer("t:rec:s", 9, Map.of("status", "ACTIVE", "p", "new"));
        Operation laterDelete = new Operation.DeleteIfNewer("t:rec:s", 10);
        Operation earlierRevocation = new Operation.PutIfNewer("t:rec:s", 4, Map.of("status", "REVOKED", "by", "b"), true);
        List<Command> commands = List.of(command("a", 1, revoked), command("b", 1, laterChange), command("c", 1, laterDelete),
                command("d", 1, earlierRevocation));
        List<String> digests = new ArrayList<>();
        for (List<Command> order : List.of(commands, List.of(commands.get(1), commands.get(2), commands.get(3), commands.get(0)),
                List.of(commands.get(2), commands.get(0), commands.get(1), commands.get(3)))) {
            REDIS.fixture().flushAll();
            order.forEach(command -> stateMachine.apply(List.of(command)));

            assertThat(StoredRecord.from(hash("t:rec:s"))).hasValueSatisfying(record -> {
                assertThat(record.terminal()).isTrue();
                assertThat(record.deleted()).isFalse();
                assertThat(record.version()).as("among terminal writes the higher version wins").isEqualTo(5);
                assertThat(record.fields()).isEqualTo(Map.of("status", "REVOKED"));
            });
            digests.add(stateMachine.digest());
        }
        assertThat(digests).containsOnly(digests.get(0));
    }

    @Test
    void padded_printsAsciiDigitsWhateverTheDefaultLocale() {
        java.util.Locale before = java.util.Locale.getDefault(java.util.Locale.Category.FORMAT);
        try {
            java.util.Locale.setDefault(java.util.Locale.Category.FORMAT, java.util.Locale.forLanguageTag("ar-EG-u-nu-arab"));
            assertThat(String.format("%019d", 42L)).as("the trap: String.format prints this locale's digits")
                    .isNotEqualTo("0000000000000000042");

            assertThat(RedisStateMachine.padded(42)).isEqualTo("0000000000000000042");
            assertThat(RedisStateMachine.padded(Long.MAX_VALUE)).isEqualTo("9223372036854775807");
            assertThat(RedisStateMachine.padded(0)).isEqualTo("0000000000000000000");
        } finally {
            java.util.Locale.setDefault(java.util.Locale.Category.FORMAT, before);
        }
    }

    @Test
    void putIfNewer_winnerIsIndependentOfOrder() {
        List<List<Command>> origins = List.of(
                List.of(command("a", 1, new Operation.PutIfNewer("t:rec:r", 3, Map.of("v", "a3"))),
                        command("a", 2, new Operation.DeleteIfNewer("t:rec:r", 1))),
                List.of(command("b", 1, new Operation.PutIfNewer("t:rec:r", 3, Map.of("v", "b3")))),
                List.of(command("c", 1, new Operation.PutIfNewer("t:rec:r", 2, Map.of("v", "c2"))),
                        command("c", 2, new Operation.PutIfNewer("t:rec:r", 1, Map.of("v", "c1")))));
        Random random = new Random(7);
        List<String> digests = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            List<Command> shuffled = interleaving(origins, random);
            REDIS.fixture().flushAll();
            shuffled.forEach(command -> assertThat(stateMachine.apply(List.of(command))).containsExactly(APPLIED));

            assertThat(StoredRecord.from(hash("t:rec:r"))).hasValueSatisfying(record -> {
                assertThat(record.version()).isEqualTo(3);
                assertThat(record.origin()).isEqualTo("b");
                assertThat(record.fields()).containsExactly(Map.entry("v", "b3"));
            });
            digests.add(stateMachine.digest());
        }
        assertThat(digests).containsOnly(digests.get(0));
    }

    /** A random interleaving of the origins' commands that keeps each origin's order (as FIFO delivery does). */
    private static List<Command> interleaving(List<List<Command>> origins, Random random) {
        List<java.util.Deque<Command>> queues = new ArrayList<>();
        origins.forEach(commands -> queues.add(new java.util.ArrayDeque<>(commands)));
        List<Command> order = new ArrayList<>();
        while (queues.stream().anyMatch(queue -> !queue.isEmpty())) {
            java.util.Deque<Command> queue = queues.get(random.nextInt(queues.size()));
            if (!queue.isEmpty()) {
                order.add(queue.poll());
            }
        }
        return order;
    }

    @Test
    void deleteIfNewer_leavesATombstoneThatBeatsOlderPuts() {
        stateMachine.apply(List.of(
                command("a", 1, new Operation.PutIfNewer("t:rec:r", 1, Map.of("v", "1"))),
                command("b", 1, new Operation.DeleteIfNewer("t:rec:r", 2)),
                command("a", 2, new Operation.PutIfNewer("t:rec:r", 1, Map.of("v", "late")))));

        assertThat(StoredRecord.from(hash("t:rec:r"))).hasValueSatisfying(record -> {
            assertThat(record.deleted()).isTrue();
            assertThat(record.version()).isEqualTo(2);
        });
        assertThat(StoredRecord.liveFields(hash("t:rec:r"))).isEmpty();

        stateMachine.apply(List.of(command("a", 3, new Operation.PutIfNewer("t:rec:r", 3, Map.of("v", "back")))));
        assertThat(StoredRecord.liveFields(hash("t:rec:r"))).contains(Map.of("v", "back"));
    }

    @Test
    void apply_keyOfAnotherKind_rejectsTheWholeCommand() {
        stateMachine.apply(List.of(command("a", 1, new Operation.SetAdd("t:set:s", "x"))));

        List<RedisStateMachine.ApplyOutcome> outcomes = stateMachine.apply(List.of(command("b", 1,
                new Operation.Put("t:idx:first", "written?"),
                new Operation.PutIfNewer("t:set:s", 1, Map.of("v", "1")))));

        assertThat(outcomes).containsExactly(REJECTED);
        try (Jedis jedis = pool.getResource()) {
            assertThat(jedis.exists("t:idx:first")).isFalse();
            assertThat(jedis.smembers("t:set:s")).containsExactly("x");
        }
        assertThat(stateMachine.appliedSeqs()).containsEntry("b", 1L);
    }

    @Test
    void snapshotPages_restoreTheSameStateAndDropStaleKeysAndTheLogs() throws Exception {
        stateMachine.apply(List.of(
                command("a", 1, new Operation.PutIfNewer("t:rec:1", 1, Map.of("f", "v"))),
                command("a", 2, new Operation.SetAdd("t:set:s", "m1"), new Operation.SetAdd("t:set:s", "m2")),
                command("b", 1, new Operation.Put("t:idx:x", "1"))));
        try (Jedis jedis = pool.getResource()) {
            jedis.set("unmanaged", "kept");
        }
        String digest = stateMachine.digest();
        var before = stateMachine.contents();
        List<SnapshotPage> pages = SnapshotPages.read(stateMachine, 1); // a page per key: several pages
        assertThat(pages).hasSizeGreaterThan(2);

        stateMachine.apply(List.of(command("c", 1, new Operation.Put("t:idx:stale", "gone"))));
        SnapshotPages.install(stateMachine, pages, pages.size());

        assertThat(stateMachine.contents()).isEqualTo(before);
        assertThat(stateMachine.digest()).isEqualTo(digest);
        assertThat(stateMachine.appliedSeqs()).isEqualTo(Map.of("a", 2L, "b", 1L));
        assertThat(log.first("a")).as("the logs did not follow the new state: gone (peers are asked instead)").isZero();
        assertThat(log.first("c")).isZero();
        assertThat(stateMachine.incompleteState()).isEmpty();
        try (Jedis jedis = pool.getResource()) {
            assertThat(jedis.exists("t:idx:stale")).isFalse();
            assertThat(jedis.get("unmanaged")).isEqualTo("kept");
        }
    }

    @Test
    void digest_ignoresUnmanagedKeysAndSeesEveryManagedChange() {
        String empty = stateMachine.digest();
        try (Jedis jedis = pool.getResource()) {
            jedis.set("other:key", "x");
        }
        assertThat(stateMachine.digest()).isEqualTo(empty);

        stateMachine.apply(List.of(command("a", 1, new Operation.SetAdd("t:set:s", "x"))));

        assertThat(stateMachine.digest()).isNotEqualTo(empty);
    }

    @Test
    void contents_listsEveryManagedKeyWithItsKindAndTheAppliedTable_notOtherKeys() {
        stateMachine.apply(List.of(command("a", 1, new Operation.PutIfNewer("t:rec:r", 7, Map.of("f", "v")),
                new Operation.SetAdd("t:set:s", "x"), new Operation.Put("t:idx:k", "value"))));
        try (Jedis jedis = pool.getResource()) {
            jedis.set("other:key", "x");
        }

        var contents = stateMachine.contents();

        assertThat(contents.keySet()).containsExactly("t:idx:k", "t:rec:r", "t:set:s", KEYSPACE.appliedTableKey());
        assertThat(contents.get("t:rec:r").kind()).isEqualTo(RedisStateMachine.KeyContent.Kind.HASH);
        assertThat(contents.get("t:rec:r").hash()).containsEntry("f", "v").containsEntry(StoredRecord.ORIGIN_FIELD, "a");
        assertThat(contents.get("t:set:s").members()).containsExactly("x");
        assertThat(contents.get("t:idx:k").value()).isEqualTo("value");
        assertThat(contents.get(KEYSPACE.appliedTableKey()).hash()).containsEntry("a", "0000000000000000001");
    }
}
