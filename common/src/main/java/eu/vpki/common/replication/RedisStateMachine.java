package eu.vpki.common.replication;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * One replica's Redis as a deterministic state machine: applies {@link Command}s with the
 * {@code apply-command.lua} script (loaded once, run with EVALSHA), which also appends each command to
 * its origin's log ({@link CommandLog}) in the same atomic step, and reads or replaces the whole
 * {@link ReplicatedKeyspace} for state transfer. The replica's applier thread owns it; writes (apply,
 * restore) and {@link #listen} are serialised, so a {@link KeyWriteListener} sees every write made after
 * it was added, and each write whole.
 */
public final class RedisStateMachine {

    /** What applying one command did. */
    public enum ApplyOutcome {
        /** Written (and logged). */
        APPLIED,
        /** Already applied earlier: nothing written. */
        DUPLICATE,
        /** A key holds another kind of value: nothing written but the sequence number and the log entry. */
        REJECTED,
        /** An earlier command of the same origin is not applied here yet: nothing written. */
        GAP
    }

    private static final LuaScript SCRIPT = LuaScript.load("apply-command.lua");
    private static final byte[] SCRIPT_SHA = SCRIPT.sha().getBytes(StandardCharsets.US_ASCII);
    private static final int PADDED_DIGITS = 19;
    private static final int SNAPSHOT_MAGIC = 0x56504B53; // "VPKS"
    private static final int SNAPSHOT_FORMAT = 1;
    private static final int END = 0;
    private static final int HASH = 'H';
    private static final int SET = 'S';
    private static final int STRING = 'V';
    private static final int SCAN_COUNT = 1_000;
    private static final int WRITE_BATCH = 1_000;

    private final JedisPool pool;
    private final ReplicatedKeyspace keyspace;
    private final List<KeyWriteListener> listeners = new CopyOnWriteArrayList<>();
    private boolean scriptLoaded;

    public RedisStateMachine(JedisPool pool, ReplicatedKeyspace keyspace) {
        this.pool = pool;
        this.keyspace = keyspace;
    }

    /** Tells {@code listener} of every write from now on (after a write in progress, if any, has returned). */
    public synchronized void listen(KeyWriteListener listener) {
        listeners.add(listener);
    }

    public ReplicatedKeyspace keyspace() {
        return keyspace;
    }

    /**
     * Applies {@code commands} in order (one EVALSHA each, pipelined); the outcomes in the same order. Listeners are
     * told of the keys the operations name before, and of the records a pointer rule superseded that no operation
     * names ({@link Operation.PutPointerIfNewer}: the record a replaced pointer named) once Redis answered, before
     * {@link KeyWriteListener#written}.
     */
    public synchronized List<ApplyOutcome> apply(List<Command> commands) {
        if (!listeners.isEmpty()) {
            List<String> keys = new ArrayList<>();
            commands.forEach(command -> command.operations().forEach(operation -> {
                keys.add(operation.key());
                if (operation instanceof Operation.PutPointerIfNewer pointer) {
                    keys.add(pointer.target());
                }
            }));
            listeners.forEach(listener -> listener.writing(keys));
        }
        try {
            List<String> superseded = new ArrayList<>();
            List<ApplyOutcome> outcomes = applyToRedis(commands, superseded);
            if (!superseded.isEmpty()) {
                listeners.forEach(listener -> listener.writing(superseded));
            }
            return outcomes;
        } finally {
            listeners.forEach(KeyWriteListener::written);
        }
    }

    private List<ApplyOutcome> applyToRedis(List<Command> commands, List<String> superseded) {
        try (Jedis jedis = pool.getResource()) {
            if (!scriptLoaded) {
                jedis.scriptLoad(SCRIPT.text());
                scriptLoaded = true;
            }
            try {
                return evaluate(jedis, commands, superseded);
            } catch (JedisNoScriptException e) {
                // Redis restarted or SCRIPT FLUSH: reload; re-running the batch is safe (idempotent)
                jedis.scriptLoad(SCRIPT.text());
                return evaluate(jedis, commands, superseded);
            }
        }
    }

    private List<ApplyOutcome> evaluate(Jedis jedis, List<Command> commands, List<String> superseded) {
        Pipeline pipeline = jedis.pipelined();
        List<Response<Object>> responses = new ArrayList<>(commands.size());
        byte[] appliedTable = utf8(keyspace.appliedTableKey());
        for (Command command : commands) {
            List<byte[]> keys = new ArrayList<>(command.operations().size() + 2);
            List<byte[]> args = new ArrayList<>(3 + 3 * command.operations().size());
            keys.add(appliedTable);
            keys.add(utf8(keyspace.logKey(command.id().origin())));
            args.add(utf8(command.id().origin()));
            args.add(utf8(padded(command.id().seq())));
            args.add(CommandCodec.encode(command));
            for (Operation operation : command.operations()) {
                keys.add(utf8(operation.key()));
                addArguments(args, operation);
            }
            responses.add(pipeline.evalsha(SCRIPT_SHA, keys, args));
        }
        pipeline.sync();
        List<ApplyOutcome> outcomes = new ArrayList<>(responses.size());
        for (Response<Object> response : responses) {
            Object answer = response.get();
            long result;
            if (answer instanceof List<?> list) {
                // applied, and superseded the records named after the outcome (apply-command.lua, "Pointers")
                result = (Long) list.get(0);
                for (Object key : list.subList(1, list.size())) {
                    superseded.add(new String((byte[]) key, StandardCharsets.UTF_8));
                }
            } else {
                result = (Long) answer;
            }
            outcomes.add(switch ((int) result) {
                case 1 -> ApplyOutcome.APPLIED;
                case 0 -> ApplyOutcome.DUPLICATE;
                case 2 -> ApplyOutcome.REJECTED;
                case 3 -> ApplyOutcome.GAP;
                default -> throw new IllegalStateException("apply script answered " + result);
            });
        }
        return outcomes;
    }

    private static void addArguments(List<byte[]> args, Operation operation) {
        if (operation instanceof Operation.PutIfNewer put) {
            args.add(utf8(put.terminal() ? "T" : "P"));
            args.add(utf8(padded(put.version())));
            args.add(utf8(Integer.toString(put.fields().size())));
            new TreeMap<>(put.fields()).forEach((name, value) -> {
                args.add(utf8(name));
                args.add(utf8(value));
            });
        } else if (operation instanceof Operation.DeleteIfNewer delete) {
            args.add(utf8("D"));
            args.add(utf8(padded(delete.version())));
        } else if (operation instanceof Operation.SetAdd add) {
            args.add(utf8("A"));
            args.add(utf8(add.member()));
        } else if (operation instanceof Operation.SetRemove remove) {
            args.add(utf8("R"));
            args.add(utf8(remove.member()));
        } else if (operation instanceof Operation.Put put) {
            args.add(utf8("S"));
            args.add(utf8(put.value()));
        } else if (operation instanceof Operation.PutPointerIfNewer pointer) {
            args.add(utf8("L"));
            args.add(utf8(padded(pointer.version())));
            args.add(utf8(pointer.field()));
            args.add(utf8(pointer.value()));
            args.add(utf8(pointer.targetPrefix()));
            args.add(utf8(pointer.statusField()));
            args.add(utf8(pointer.supersededStatus()));
        } else {
            throw new IllegalArgumentException("unknown operation " + operation);
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * {@code value} as 19 ASCII digits with leading zeros, so that byte-wise comparison is numeric
     * comparison. Written by hand: {@code String.format} prints the digits of the default locale
     * (Arabic-Indic digits under {@code ar-EG-u-nu-arab}, for one), and replicas with different
     * locales would then compare versions differently.
     */
    static String padded(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("versions and sequence numbers are non-negative, got " + value);
        }
        String digits = Long.toString(value);
        return "0".repeat(PADDED_DIGITS - digits.length()) + digits;
    }

    /**
     * The {@code run_id} of the redis-server process ({@code INFO server}): a new one every time the
     * server starts, so a replica sees that its Redis restarted (and may have lost its last writes)
     * even when no apply failed in between.
     */
    public String serverRunId() {
        try (Jedis jedis = pool.getResource()) {
            for (String line : jedis.info("server").split("\r?\n")) {
                if (line.startsWith("run_id:")) {
                    return line.substring("run_id:".length()).strip();
                }
            }
        }
        throw new IllegalStateException("INFO server names no run_id");
    }

    /** The memory its Redis uses and may use ({@code INFO memory}: {@code used_memory}, {@code maxmemory}, 0 = no limit). */
    ReplicationSnapshot.RedisMemory memory() {
        long used = -1;
        long max = 0;
        try (Jedis jedis = pool.getResource()) {
            for (String line : jedis.info("memory").split("\r?\n")) {
                if (line.startsWith("used_memory:")) {
                    used = Long.parseLong(line.substring("used_memory:".length()).strip());
                } else if (line.startsWith("maxmemory:")) {
                    max = Long.parseLong(line.substring("maxmemory:".length()).strip());
                }
            }
        }
        if (used < 0) {
            throw new IllegalStateException("INFO memory names no used_memory");
        }
        return new ReplicationSnapshot.RedisMemory(used, max);
    }

    /** The last applied sequence number per origin. */
    public Map<String, Long> appliedSeqs() {
        try (Jedis jedis = pool.getResource()) {
            Map<String, Long> applied = new HashMap<>();
            jedis.hgetAll(keyspace.appliedTableKey()).forEach((origin, seq) -> applied.put(origin, Long.parseLong(seq)));
            return applied;
        }
    }

    /** Writes every managed key and the applied table to {@code target} (not closed). */
    public void writeSnapshot(OutputStream target) throws IOException {
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(target, 64 * 1024));
        out.writeInt(SNAPSHOT_MAGIC);
        out.writeByte(SNAPSHOT_FORMAT);
        try {
            forEachEntry(entry -> {
                try {
                    writeEntry(out, entry);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        out.writeByte(END);
        out.flush();
    }

    /**
     * Replaces every managed key and the applied table with the snapshot read from {@code source} (not closed), if
     * the snapshot holds everything {@code applied} names (per origin, what this replica applied: the snapshot's
     * applied table must reach it), else changes nothing and throws. Never leaves a state that looks complete and is
     * not: before the first managed key is deleted it sets {@link ReplicatedKeyspace#incompleteKey()}, and it writes
     * the applied table last, in the transaction that removes that marker. An interrupted restore (a failed stream,
     * a timeout, a crash of this replica or of its Redis) leaves the marker, no applied table and part of the keys:
     * {@link #incompleteState()} then says so, after a restart too, until a complete snapshot is installed.
     *
     * @throws IOException if the snapshot is malformed, does not hold what {@code applied} names, or breaks off
     */
    public synchronized void restore(InputStream source, Map<String, Long> applied) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(source, 64 * 1024));
        if (in.readInt() != SNAPSHOT_MAGIC) {
            throw new IOException("not a vpki replication snapshot");
        }
        int format = in.readUnsignedByte();
        if (format != SNAPSHOT_FORMAT) {
            throw new IOException("unknown snapshot format " + format);
        }
        // the provider writes its applied table first (forEachEntry): decide before anything is replaced
        Entry first = readEntry(in);
        Map<String, String> table = first != null && first.kind() == HASH && first.key().equals(keyspace.appliedTableKey())
                ? first.pairs()
                : Map.of();
        for (Map.Entry<String, Long> mine : applied.entrySet()) {
            String theirs = table.get(mine.getKey());
            if (mine.getValue() > 0 && (theirs == null || Long.parseLong(theirs) < mine.getValue())) {
                throw new IOException("the snapshot holds " + mine.getKey() + " up to " + (theirs == null ? 0 : theirs)
                        + ", this replica applied it up to " + mine.getValue() + ": not replaced");
            }
        }
        Entry pending = table.isEmpty() ? first : readEntry(in);
        listeners.forEach(KeyWriteListener::replacing);
        try (Jedis jedis = pool.getResource()) {
            jedis.set(keyspace.incompleteKey(), "a state transfer began replacing this replica's state and did not finish");
            deleteManagedKeys(jedis);
            Pipeline pipeline = jedis.pipelined();
            int written = 0;
            for (Entry entry = pending; entry != null; entry = readEntry(in)) {
                if (entry.key().equals(keyspace.appliedTableKey()) || !keyspace.isManaged(entry.key())) {
                    throw new IOException("snapshot entry " + entry.key() + " is not a managed key");
                }
                switch (entry.kind()) {
                    case HASH -> pipeline.hset(entry.key(), entry.pairs());
                    case SET -> pipeline.sadd(entry.key(), entry.members().toArray(String[]::new));
                    default -> pipeline.set(entry.key(), entry.value());
                }
                if (++written % WRITE_BATCH == 0) {
                    pipeline.sync();
                }
            }
            pipeline.sync();
            Transaction complete = jedis.multi();
            if (!table.isEmpty()) {
                complete.hset(keyspace.appliedTableKey(), table);
            }
            complete.del(keyspace.incompleteKey());
            complete.exec();
        } finally {
            listeners.forEach(KeyWriteListener::written);
        }
    }

    /**
     * Why this replica's state is incomplete (a state transfer began replacing it and did not finish:
     * {@link #restore}), or empty if it is not. Read from Redis, so it holds across restarts of the replica.
     */
    public Optional<String> incompleteState() {
        try (Jedis jedis = pool.getResource()) {
            return Optional.ofNullable(jedis.get(keyspace.incompleteKey()));
        }
    }

    /**
     * SHA-256 (hex) over every managed key, its kind and its content, and the applied table, in key
     * order: two replicas hold the same replicated state exactly when their digests are equal.
     */
    public String digest() {
        TreeMap<String, Entry> sorted = new TreeMap<>();
        forEachEntry(entry -> sorted.put(entry.key(), entry));
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            for (Entry entry : sorted.values()) {
                sha256.update((byte) entry.kind());
                update(sha256, entry.key());
                switch (entry.kind()) {
                    case HASH -> new TreeMap<>(entry.pairs()).forEach((field, value) -> {
                        update(sha256, field);
                        update(sha256, value);
                    });
                    case SET -> new TreeSet<>(entry.members()).forEach(member -> update(sha256, member));
                    default -> update(sha256, entry.value());
                }
            }
            return HexFormat.of().formatHex(sha256.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is mandatory in every JRE", e);
        }
    }

    /**
     * One managed key (or the applied table) as this replica holds it: a hash, a set or a string.
     * For tools that compare replicas key by key (the fault harness), not for the apply path.
     */
    public record KeyContent(String key, Kind kind, Map<String, String> hash, Set<String> members, String value) {
        /** The Redis type of a managed key. */
        public enum Kind { HASH, SET, STRING }

        public KeyContent {
            hash = Map.copyOf(hash);
            members = Set.copyOf(members);
        }
    }

    /**
     * Every managed key and the applied table with its content, sorted by key. Read with SCAN while
     * the replica may be applying, so it is one consistent cut only when nothing is being applied.
     */
    public SortedMap<String, KeyContent> contents() {
        SortedMap<String, KeyContent> sorted = new TreeMap<>();
        forEachEntry(entry -> sorted.put(entry.key(), switch (entry.kind()) {
            case HASH -> new KeyContent(entry.key(), KeyContent.Kind.HASH, entry.pairs(), Set.of(), null);
            case SET -> new KeyContent(entry.key(), KeyContent.Kind.SET, Map.of(), entry.members(), null);
            default -> new KeyContent(entry.key(), KeyContent.Kind.STRING, Map.of(), Set.of(), entry.value());
        }));
        return sorted;
    }

    private static void update(MessageDigest digest, String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        digest.update((byte) (utf8.length >>> 24));
        digest.update((byte) (utf8.length >>> 16));
        digest.update((byte) (utf8.length >>> 8));
        digest.update((byte) utf8.length);
        digest.update(utf8);
    }

    /** A key's content: a hash ({@code pairs}), a set ({@code members}) or a string ({@code value}). */
    private record Entry(int kind, String key, Map<String, String> pairs, Set<String> members, String value) {
    }

    private void forEachEntry(Consumer<Entry> consumer) {
        try (Jedis jedis = pool.getResource()) {
            Map<String, String> table = jedis.hgetAll(keyspace.appliedTableKey());
            if (!table.isEmpty()) {
                consumer.accept(new Entry(HASH, keyspace.appliedTableKey(), table, Set.of(), null));
            }
            for (String prefix : keyspace.prefixes()) {
                ScanParams params = new ScanParams().match(ReplicatedKeyspace.scanPattern(prefix)).count(SCAN_COUNT);
                String cursor = ScanParams.SCAN_POINTER_START;
                do {
                    ScanResult<String> page = jedis.scan(cursor, params);
                    readPage(jedis, page.getResult()).forEach(consumer);
                    cursor = page.getCursor();
                } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            }
        }
    }

    private static List<Entry> readPage(Jedis jedis, List<String> keys) {
        Pipeline types = jedis.pipelined();
        List<Response<String>> typeResponses = keys.stream().map(types::type).toList();
        types.sync();
        Pipeline reads = jedis.pipelined();
        List<Response<?>> contents = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            contents.add(switch (typeResponses.get(i).get()) {
                case "hash" -> reads.hgetAll(key);
                case "set" -> reads.smembers(key);
                case "string" -> reads.get(key);
                case "none" -> null; // cannot happen while the applier is paused; tolerated for digests
                default -> throw new IllegalStateException("managed key " + key + " holds an unsupported type");
            });
        }
        reads.sync();
        List<Entry> entries = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            switch (typeResponses.get(i).get()) {
                case "hash" -> entries.add(new Entry(HASH, key, castMap(contents.get(i).get()), Set.of(), null));
                case "set" -> entries.add(new Entry(SET, key, Map.of(), castSet(contents.get(i).get()), null));
                case "string" -> entries.add(new Entry(STRING, key, Map.of(), Set.of(), (String) contents.get(i).get()));
                default -> {
                    // key vanished between SCAN and TYPE
                }
            }
        }
        return entries;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> castMap(Object value) {
        return (Map<String, String>) value;
    }

    @SuppressWarnings("unchecked")
    private static Set<String> castSet(Object value) {
        return (Set<String>) value;
    }

    private void deleteManagedKeys(Jedis jedis) {
        jedis.del(keyspace.appliedTableKey());
        for (String prefix : keyspace.prefixes()) {
            ScanParams params = new ScanParams().match(ReplicatedKeyspace.scanPattern(prefix)).count(SCAN_COUNT);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = jedis.scan(cursor, params);
                if (!page.getResult().isEmpty()) {
                    jedis.unlink(page.getResult().toArray(String[]::new));
                }
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
    }

    private static void writeEntry(DataOutputStream out, Entry entry) throws IOException {
        out.writeByte(entry.kind());
        CommandCodec.writeString(out, entry.key());
        switch (entry.kind()) {
            case HASH -> {
                CommandCodec.writeVarLong(out, entry.pairs().size());
                for (Map.Entry<String, String> pair : entry.pairs().entrySet()) {
                    CommandCodec.writeString(out, pair.getKey());
                    CommandCodec.writeString(out, pair.getValue());
                }
            }
            case SET -> {
                CommandCodec.writeVarLong(out, entry.members().size());
                for (String member : entry.members()) {
                    CommandCodec.writeString(out, member);
                }
            }
            default -> CommandCodec.writeString(out, entry.value());
        }
    }

    private static Entry readEntry(DataInputStream in) throws IOException {
        int kind = in.readUnsignedByte();
        if (kind == END) {
            return null;
        }
        String key = CommandCodec.readString(in);
        switch (kind) {
            case HASH -> {
                int count = CommandCodec.readCount(in);
                Map<String, String> pairs = new HashMap<>(Math.min(count, 1_024) * 2);
                for (int i = 0; i < count; i++) {
                    pairs.put(CommandCodec.readString(in), CommandCodec.readString(in));
                }
                return new Entry(HASH, key, pairs, Set.of(), null);
            }
            case SET -> {
                int count = CommandCodec.readCount(in);
                Set<String> members = new HashSet<>(Math.min(count, 1_024) * 2);
                for (int i = 0; i < count; i++) {
                    members.add(CommandCodec.readString(in));
                }
                return new Entry(SET, key, Map.of(), members, null);
            }
            case STRING -> {
                return new Entry(STRING, key, Map.of(), Set.of(), CommandCodec.readString(in));
            }
            default -> throw new IOException("unknown snapshot entry kind " + kind);
        }
    }
}
