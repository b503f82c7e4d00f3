package eu.vpki.common.replication;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.exceptions.JedisNoScriptException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads {@link StoredRecord}s from one replica's Redis in a single round trip, including records
 * named by a field of another record (an EC record names its station; a station's latest-EC record
 * names the EC). On a 2-core VM a Redis round trip costs the server about 40 µs of CPU whatever it
 * carries, so the EA's request paths read everything they need with one script call ({@code
 * read-records.lua}, run with EVALSHA; loaded again after a Redis restart). Thread-safe.
 *
 * <p>The script derives the followed keys from stored values, so it needs one Redis holding the
 * whole keyspace (each replica's own standalone Redis), not Redis Cluster.
 */
public final class RecordReader {

    /**
     * A record named by another: the value of {@code field} in the {@code from}-th record read
     * (0-based, over the keys and then earlier references), prefixed by {@code prefix}.
     */
    public record Reference(int from, String field, String prefix) {
    }

    private static final LuaScript SCRIPT = LuaScript.load("read-records.lua");

    private final JedisPool pool;

    public RecordReader(JedisPool pool) {
        this.pool = pool;
    }

    /**
     * The records at {@code keys}, then the ones named by {@code references}, in that order; a record
     * is empty when it is absent, a tombstone, or its referring record or field is absent.
     */
    public List<Optional<StoredRecord>> read(List<String> keys, List<Reference> references) {
        int total = keys.size() + references.size();
        List<String> args = new ArrayList<>(3 * references.size());
        for (int i = 0; i < references.size(); i++) {
            Reference reference = references.get(i);
            if (reference.from() < 0 || reference.from() >= keys.size() + i) {
                throw new IllegalArgumentException("reference " + i + " refers to record " + reference.from()
                        + ", not read before it");
            }
            args.add(Integer.toString(reference.from() + 1));
            args.add(reference.field());
            args.add(reference.prefix());
        }
        Object reply;
        try (Jedis jedis = pool.getResource()) {
            try {
                reply = jedis.evalsha(SCRIPT.sha(), keys, args);
            } catch (JedisNoScriptException e) {
                jedis.scriptLoad(SCRIPT.text()); // Redis restarted or SCRIPT FLUSH
                reply = jedis.evalsha(SCRIPT.sha(), keys, args);
            }
        }
        List<?> arrays = (List<?>) reply;
        if (arrays.size() != total) {
            throw new IllegalStateException("read-records.lua returned " + arrays.size() + " records, not " + total);
        }
        List<Optional<StoredRecord>> records = new ArrayList<>(total);
        for (Object array : arrays) {
            records.add(StoredRecord.from(hash((List<?>) array)).filter(record -> !record.deleted()));
        }
        return records;
    }

    private static Map<String, String> hash(List<?> flat) {
        Map<String, String> hash = new HashMap<>(flat.size());
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            hash.put(text(flat.get(i)), text(flat.get(i + 1)));
        }
        return hash;
    }

    private static String text(Object value) {
        return value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : (String) value;
    }
}
