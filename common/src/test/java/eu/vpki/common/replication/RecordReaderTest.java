package eu.vpki.common.replication;

import eu.vpki.common.testing.RedisFixtureExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordReaderTest {

    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();

    private static final ReplicatedKeyspace KEYSPACE = ReplicatedKeyspace.of("t:owner:", "t:pointer:", "t:item:");

    private JedisPool pool;
    private RedisStateMachine stateMachine;
    private RecordReader reader;
    private long seq;

    @BeforeEach
    void connect() {
        pool = REDIS.fixture().newPool(); // the extension empties Redis before each test
        stateMachine = new RedisStateMachine(pool, KEYSPACE);
        reader = new RecordReader(pool);
    }

    @AfterEach
    void disconnect() {
        pool.close();
    }

    private void apply(Operation... operations) {
        stateMachine.apply(List.of(new Command(new CommandId("r1", ++seq), 0, List.of(operations))));
    }

    private static final List<RecordReader.Reference> OWNER_POINTER_ITEM = List.of(new RecordReader.Reference(1, "item", "t:item:"));

    @Test
    void read_followsTheReference_andReturnsEveryRecordInOrder() {
        apply(new Operation.PutIfNewer("t:owner:o", 7, Map.of("name", "owner o")),
                new Operation.PutIfNewer("t:pointer:o", 8, Map.of("item", "i2")),
                new Operation.PutIfNewer("t:item:i2", 8, Map.of("owner", "o", "payload", "ABC")));

        List<Optional<StoredRecord>> read = reader.read(List.of("t:owner:o", "t:pointer:o"), OWNER_POINTER_ITEM);

        assertThat(read).hasSize(3);
        assertThat(read.get(0)).hasValueSatisfying(r -> {
            assertThat(r.version()).isEqualTo(7);
            assertThat(r.origin()).isEqualTo("r1");
            assertThat(r.fields()).isEqualTo(Map.of("name", "owner o"));
        });
        assertThat(read.get(1).orElseThrow().fields()).isEqualTo(Map.of("item", "i2"));
        assertThat(read.get(2).orElseThrow().fields()).isEqualTo(Map.of("owner", "o", "payload", "ABC"));
        // the other direction: item to owner
        assertThat(reader.read(List.of("t:item:i2"), List.of(new RecordReader.Reference(0, "owner", "t:owner:"))))
                .extracting(r -> r.map(StoredRecord::version).orElse(-1L)).containsExactly(8L, 7L);
    }

    @Test
    void read_absentRecords_andReferencesFromThem_areEmpty() {
        apply(new Operation.PutIfNewer("t:owner:o", 1, Map.of("name", "o")));

        assertThat(reader.read(List.of("t:owner:o", "t:pointer:o"), OWNER_POINTER_ITEM))
                .extracting(Optional::isPresent).containsExactly(true, false, false);
        assertThat(reader.read(List.of("t:owner:nobody", "t:pointer:nobody"), OWNER_POINTER_ITEM))
                .extracting(Optional::isPresent).containsExactly(false, false, false);
    }

    @Test
    void read_referenceToAMissingRecordOrField_isEmpty() {
        apply(new Operation.PutIfNewer("t:pointer:a", 1, Map.of("item", "gone")),
                new Operation.PutIfNewer("t:pointer:b", 1, Map.of("other", "x")));

        assertThat(reader.read(List.of("t:pointer:a"), List.of(new RecordReader.Reference(0, "item", "t:item:"))))
                .extracting(Optional::isPresent).containsExactly(true, false);
        assertThat(reader.read(List.of("t:pointer:b"), List.of(new RecordReader.Reference(0, "item", "t:item:"))))
                .extracting(Optional::isPresent).containsExactly(true, false);
    }

    @Test
    void read_tombstones_areEmpty_andNotFollowed() {
        apply(new Operation.PutIfNewer("t:pointer:o", 1, Map.of("item", "i1")),
                new Operation.PutIfNewer("t:item:i1", 1, Map.of("payload", "x")));
        apply(new Operation.DeleteIfNewer("t:pointer:o", 2));

        assertThat(reader.read(List.of("t:pointer:o"), List.of(new RecordReader.Reference(0, "item", "t:item:"))))
                .extracting(Optional::isPresent).containsExactly(false, false);
    }

    @Test
    void read_afterRedisForgotTheScript_loadsItAgain() {
        apply(new Operation.PutIfNewer("t:owner:o", 3, Map.of("name", "o")));
        assertThat(reader.read(List.of("t:owner:o"), List.of())).extracting(Optional::isPresent).containsExactly(true);
        try (Jedis jedis = pool.getResource()) {
            jedis.scriptFlush();
        }

        assertThat(reader.read(List.of("t:owner:o"), List.of())).extracting(r -> r.orElseThrow().version()).containsExactly(3L);
    }

    @Test
    void read_referenceToALaterRecord_isRefused() {
        assertThatThrownBy(() -> reader.read(List.of("t:owner:o"), List.of(new RecordReader.Reference(1, "item", "t:item:"))))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
