package eu.vpki.common.replication;

import eu.vpki.common.testing.Interleavings;
import eu.vpki.common.testing.RedisFixtureExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static eu.vpki.common.replication.RedisStateMachine.ApplyOutcome.APPLIED;
import static eu.vpki.common.replication.RedisStateMachine.ApplyOutcome.DUPLICATE;
import static eu.vpki.common.replication.RedisStateMachine.ApplyOutcome.REJECTED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Operation.PutPointerIfNewer} applied by the real apply script on a real redis-server: whatever the order of
 * concurrent pointer writes (FIFO: each origin in order, origins interleaved), every replica ends with the pointer at
 * the highest {@code (version, origin)} and every other record a pointer write named superseded, byte for byte alike.
 */
class PointerRuleTest {

    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();

    private static final ReplicatedKeyspace KEYSPACE = ReplicatedKeyspace.of("t:ptr:", "t:rec:", "t:set:");
    private static final String POINTER = "t:ptr:s";

    private JedisPool pool;
    private RedisStateMachine stateMachine;

    @BeforeEach
    void connect() {
        REDIS.fixture().flushAll();
        pool = REDIS.fixture().newPool();
        stateMachine = new RedisStateMachine(pool, KEYSPACE);
    }

    @AfterEach
    void disconnect() {
        pool.close();
    }

    /** What an enrolment writes: the named record (ACTIVE, not terminal), then the pointer naming it, same version. */
    private static List<Operation> issue(String id, long version) {
        return List.of(new Operation.PutIfNewer("t:rec:" + id, version, Map.of("status", "ACTIVE", "body", "record " + id)),
                pointer(id, version));
    }

    private static Operation.PutPointerIfNewer pointer(String id, long version) {
        return new Operation.PutPointerIfNewer(POINTER, version, "ec", id, "t:rec:", "status", "SUPERSEDED");
    }

    private static Command command(String origin, long seq, List<Operation> operations) {
        return new Command(new CommandId(origin, seq), 0, operations);
    }

    private Map<String, String> hash(String key) {
        try (Jedis jedis = pool.getResource()) {
            return jedis.hgetAll(key);
        }
    }

    /**
     * Three origins, five pointer writes (b's second one the highest; a's second one read a's first, so it is above
     * it, and supersedes it explicitly as a re-enrolment does), every interleaving that keeps each origin's order,
     * each command delivered twice: one state, one live record.
     */
    @Test
    void concurrentPointerWrites_inEveryInterleaving_leaveOneLiveRecordAndTheSameState() {
        List<List<Command>> origins = List.of(
                List.of(command("a", 1, issue("a1", 10)),
                        command("a", 2, concat(issue("a2", 20),
                                new Operation.PutIfNewer("t:rec:a1", 21, Map.of("status", "SUPERSEDED", "body", "record a1"), true)))),
                List.of(command("b", 1, issue("b1", 10)), command("b", 2, issue("b2", 30))),
                List.of(command("c", 1, issue("c1", 25))));
        List<List<Command>> orders = Interleavings.of(origins);
        assertThat(orders).as("5! / (2! 2! 1!) interleavings").hasSize(30);

        Map<String, String> expectedA1 = Map.copyOf(Map.of("status", "SUPERSEDED", "body", "record a1", "@version",
                RedisStateMachine.padded(21), "@origin", "a", "@terminal", "1"));
        Map<String, List<String>> digests = new HashMap<>();
        for (List<Command> order : orders) {
            REDIS.fixture().flushAll();
            for (Command command : order) {
                assertThat(stateMachine.apply(List.of(command))).containsExactly(APPLIED);
                assertThat(stateMachine.apply(List.of(command))).as("delivered again").containsExactly(DUPLICATE);
            }

            assertThat(StoredRecord.from(hash(POINTER)).orElseThrow().fields()).as("pointer after %s", ids(order))
                    .isEqualTo(Map.of("ec", "b2"));
            assertThat(hash("t:rec:b2")).as("the winner's record, untouched").isEqualTo(Map.of("status", "ACTIVE", "body", "record b2",
                    "@version", RedisStateMachine.padded(30), "@origin", "b"));
            for (Map.Entry<String, Long> loser : Map.of("b1", 10L, "a2", 20L, "c1", 25L).entrySet()) {
                String id = loser.getKey();
                assertThat(hash("t:rec:" + id)).as("%s after %s: its own record (version, origin, fields), superseded", id, ids(order))
                        .isEqualTo(Map.of("status", "SUPERSEDED", "body", "record " + id, "@version",
                                RedisStateMachine.padded(loser.getValue()), "@origin", id.substring(0, 1), "@terminal", "1"));
            }
            assertThat(hash("t:rec:a1")).as("a1 after %s: the explicit supersede (higher version) wins over the rule's", ids(order))
                    .isEqualTo(expectedA1);
            digests.computeIfAbsent(stateMachine.digest(), d -> new ArrayList<>()).add(ids(order));
        }
        assertThat(digests).as("one state whatever the order").hasSize(1);
    }

    /** The loser's pointer write arrives after the winner's, in a later batch: its own record is superseded. */
    @Test
    void losingPointer_supersedesTheRecordItNames() {
        stateMachine.apply(List.of(command("a", 1, issue("x", 20))));

        assertThat(stateMachine.apply(List.of(command("b", 1, issue("y", 10))))).containsExactly(APPLIED);

        assertThat(hash(POINTER)).containsEntry("ec", "x").containsEntry("@version", RedisStateMachine.padded(20));
        assertThat(hash("t:rec:x")).containsEntry("status", "ACTIVE").doesNotContainKey("@terminal");
        assertThat(hash("t:rec:y")).containsEntry("status", "SUPERSEDED").containsEntry("@terminal", "1")
                .containsEntry("@version", RedisStateMachine.padded(10)).containsEntry("@origin", "b");
    }

    /** A superseded record stays superseded: its own non-terminal write, delivered again or late, never undoes it. */
    @Test
    void supersededRecord_isNotUndoneByItsOwnActiveWrite() {
        stateMachine.apply(List.of(command("a", 1, issue("x", 10)), command("b", 1, issue("y", 20))));
        assertThat(hash("t:rec:x")).containsEntry("status", "SUPERSEDED");

        stateMachine.apply(List.of(command("a", 2, List.of(new Operation.PutIfNewer("t:rec:x", 10,
                Map.of("status", "ACTIVE", "body", "record x"))))));

        assertThat(hash("t:rec:x")).containsEntry("status", "SUPERSEDED").containsEntry("@terminal", "1");
    }

    /** The same record named again (a pointer write naming what the pointer names) supersedes nothing. */
    @Test
    void pointerNamingTheSameRecord_supersedesNothing() {
        stateMachine.apply(List.of(command("a", 1, issue("x", 10))));

        stateMachine.apply(List.of(command("a", 2, List.of(pointer("x", 11))), command("b", 1, List.of(pointer("x", 5)))));

        assertThat(hash("t:rec:x")).containsEntry("status", "ACTIVE").doesNotContainKey("@terminal");
        assertThat(hash(POINTER)).containsEntry("@version", RedisStateMachine.padded(11));
    }

    /** A pointer key or a named record holding another kind of value rejects the command as a whole. */
    @Test
    void keyOfAnotherKind_rejectsTheWholeCommand() {
        stateMachine.apply(List.of(command("a", 1, List.of(new Operation.SetAdd("t:set:s", "m"),
                new Operation.SetAdd("t:rec:a-set", "m")))));

        List<RedisStateMachine.ApplyOutcome> outcomes = stateMachine.apply(List.of(
                command("b", 1, List.of(new Operation.PutIfNewer("t:rec:written?", 1, Map.of("status", "ACTIVE")),
                        new Operation.PutPointerIfNewer("t:set:s", 1, "ec", "x", "t:rec:", "status", "SUPERSEDED"))),
                command("c", 1, List.of(new Operation.PutIfNewer("t:rec:written?", 1, Map.of("status", "ACTIVE")),
                        pointer("a-set", 1)))));

        assertThat(outcomes).containsExactly(REJECTED, REJECTED);
        assertThat(hash("t:rec:written?")).isEmpty();
        assertThat(hash(POINTER)).isEmpty();
        assertThat(stateMachine.appliedSeqs()).containsEntry("b", 1L).containsEntry("c", 1L);
    }

    /**
     * The record a replaced pointer named is named by no operation of the command: listeners are told of it once Redis
     * answered, before {@code written()}. The record a losing pointer names is in the first call already.
     */
    @Test
    void listeners_areToldOfTheRecordAReplacedPointerNamed() {
        List<String> calls = new ArrayList<>();
        stateMachine.listen(new KeyWriteListener() {
            @Override
            public void writing(Collection<String> keys) {
                calls.add("writing " + List.copyOf(keys));
            }

            @Override
            public void replacing() {
                calls.add("replacing");
            }

            @Override
            public void written() {
                calls.add("written");
            }
        });
        stateMachine.apply(List.of(command("a", 1, issue("x", 10))));
        calls.clear();

        stateMachine.apply(List.of(command("b", 1, issue("y", 20))));

        assertThat(calls).containsExactly("writing [t:rec:y, t:ptr:s, t:rec:y]", "writing [t:rec:x]", "written");
        assertThat(hash("t:rec:x")).containsEntry("status", "SUPERSEDED");
    }

    private static List<Operation> concat(List<Operation> first, Operation then) {
        List<Operation> all = new ArrayList<>(first);
        all.add(then);
        return all;
    }

    private static String ids(List<Command> order) {
        return order.stream().map(c -> c.id().seq() + "@" + c.id().origin()).toList().toString();
    }
}
