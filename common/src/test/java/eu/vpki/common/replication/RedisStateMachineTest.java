package eu.vpki.common.replication;

import eu.vpki.common.testing.RedisFixture;
import eu.vpki.common.testing.RedisFixtureExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static eu.vpki.common.replication.RedisStateMachine.ApplyOutcome.APPLIED;
import static eu.vpki.common.replication.RedisStateMachine.ApplyOutcome.DUPLICATE;
import static eu.vpki.common.replication.RedisStateMachine.ApplyOutcome.REJECTED;
import static org.assertj.core.api.Assertions.assertThat;

class RedisStateMachineTest {

    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();

    private static final ReplicatedKeyspace KEYSPACE = ReplicatedKeyspace.of("t:rec:", "t:set:", "t:idx:");

    private JedisPool pool;
    private RedisStateMachine stateMachine;

    @BeforeEach
    void connect() {
        pool = REDIS.fixture().newPool();
        stateMachine = new RedisStateMachine(pool, KEYSPACE);
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
        stateMachine.apply(List.of(command("a", 5, new Operation.Put("t:idx:k", "five"))));

        assertThat(stateMachine.apply(List.of(command("a", 4, new Operation.Put("t:idx:k", "four")))))
                .containsExactly(DUPLICATE);
        try (Jedis jedis = pool.getResource()) {
            assertThat(jedis.get("t:idx:k")).isEqualTo("five");
        }
    }

    @Test
    void putIfNewer_winnerIsIndependentOfOrder() {
        List<Command> commands = List.of(
                command("a", 1, new Operation.PutIfNewer("t:rec:r", 3, Map.of("v", "a3"))),
                command("b", 1, new Operation.PutIfNewer("t:rec:r", 3, Map.of("v", "b3"))),
                command("c", 1, new Operation.PutIfNewer("t:rec:r", 2, Map.of("v", "c2"))),
                command("a", 2, new Operation.DeleteIfNewer("t:rec:r", 1)),
                command("c", 2, new Operation.PutIfNewer("t:rec:r", 1, Map.of("v", "c1"))));
        Random random = new Random(7);
        List<String> digests = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            List<Command> shuffled = new ArrayList<>(commands);
            Collections.shuffle(shuffled, random);
            REDIS.fixture().flushAll();
            shuffled.forEach(command -> stateMachine.apply(List.of(command)));

            assertThat(StoredRecord.from(hash("t:rec:r"))).hasValueSatisfying(record -> {
                assertThat(record.version()).isEqualTo(3);
                assertThat(record.origin()).isEqualTo("b");
                assertThat(record.fields()).containsExactly(Map.entry("v", "b3"));
            });
            digests.add(stateMachine.digest());
        }
        assertThat(digests).containsOnly(digests.get(0));
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
    void snapshot_restoresTheSameStateAndDropsStaleKeys() throws Exception {
        stateMachine.apply(List.of(
                command("a", 1, new Operation.PutIfNewer("t:rec:1", 1, Map.of("f", "v"))),
                command("a", 2, new Operation.SetAdd("t:set:s", "m1"), new Operation.SetAdd("t:set:s", "m2")),
                command("b", 9, new Operation.Put("t:idx:x", "1"))));
        try (Jedis jedis = pool.getResource()) {
            jedis.set("unmanaged", "kept");
        }
        String digest = stateMachine.digest();
        ByteArrayOutputStream snapshot = new ByteArrayOutputStream();
        stateMachine.writeSnapshot(snapshot);

        stateMachine.apply(List.of(command("c", 1, new Operation.Put("t:idx:stale", "gone"))));
        stateMachine.restore(new ByteArrayInputStream(snapshot.toByteArray()));

        assertThat(stateMachine.digest()).isEqualTo(digest);
        assertThat(stateMachine.appliedSeqs()).isEqualTo(Map.of("a", 2L, "b", 9L));
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
