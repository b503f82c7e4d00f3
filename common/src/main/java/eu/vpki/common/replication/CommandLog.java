package eu.vpki.common.replication;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.params.XTrimParams;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One replica's durable command log, read side: per origin, a Redis stream whose entry {@code <seq>-0}
 * holds that command as encoded on the wire. {@code apply-command.lua} appends to it in the same
 * atomic step that applies the command, so the log holds exactly the applied commands, persisted with
 * the state by the replica's Redis (AOF). Peers that lack commands fetch them from here
 * ({@link #read}); once every member applied them they are trimmed ({@link #trimThrough}).
 * Thread-safe (each call takes its own connection).
 */
final class CommandLog {

    private static final byte[] FIRST = "-".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LAST = "+".getBytes(StandardCharsets.US_ASCII);

    private final JedisPool pool;
    private final ReplicatedKeyspace keyspace;

    CommandLog(JedisPool pool, ReplicatedKeyspace keyspace) {
        this.pool = pool;
        this.keyspace = keyspace;
    }

    /**
     * {@code origin}'s logged commands with sequence numbers {@code from..to}, encoded, ascending; at
     * most {@code maxCommands} and, past the first, at most about {@code maxBytes}. Starts later than
     * {@code from} if the log was trimmed past it (the caller sees the gap).
     */
    List<byte[]> read(String origin, long from, long to, int maxCommands, long maxBytes) {
        List<byte[]> commands = new ArrayList<>();
        if (to < from) {
            return commands;
        }
        try (Jedis jedis = pool.getResource()) {
            List<Object> entries = jedis.xrange(key(origin), id(from), id(to), maxCommands);
            long bytes = 0;
            for (Object entry : entries) {
                byte[] command = commandOf(entry);
                if (!commands.isEmpty() && bytes + command.length > maxBytes) {
                    break;
                }
                commands.add(command);
                bytes += command.length;
            }
        }
        return commands;
    }

    /** The first sequence number of {@code origin} still in the log; 0 when it holds none. */
    long first(String origin) {
        try (Jedis jedis = pool.getResource()) {
            List<Object> entries = jedis.xrange(key(origin), FIRST, LAST, 1);
            return entries.isEmpty() ? 0 : seqOf(entries.get(0));
        }
    }

    /** How many commands of {@code origin} the log holds now (XLEN). */
    long length(String origin) {
        try (Jedis jedis = pool.getResource()) {
            return jedis.xlen(key(origin));
        }
    }

    /** Removes {@code origin}'s commands up to and including {@code seq}. */
    void trimThrough(String origin, long seq) {
        try (Jedis jedis = pool.getResource()) {
            jedis.xtrim(key(origin), XTrimParams.xTrimParams().minId((seq + 1) + "-0").exactTrimming());
        }
    }

    private byte[] key(String origin) {
        return keyspace.logKey(origin).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] id(long seq) {
        return (seq + "-0").getBytes(StandardCharsets.US_ASCII);
    }

    /** An XRANGE entry is {@code [id, [field, value, ...]]}; the command is the value of field {@code c}. */
    private static byte[] commandOf(Object entry) {
        List<?> pair = (List<?>) entry;
        List<?> fields = (List<?>) pair.get(1);
        return (byte[]) fields.get(1);
    }

    private static long seqOf(Object entry) {
        String id = new String((byte[]) ((List<?>) entry).get(0), StandardCharsets.US_ASCII);
        return Long.parseLong(id.substring(0, id.indexOf('-')));
    }
}
