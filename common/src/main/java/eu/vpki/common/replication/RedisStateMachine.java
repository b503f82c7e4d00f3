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
 * state transfer) and {@link #listen} are serialised, so a {@link KeyWriteListener} sees every write made after
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
    /** Sets of at most this many members go whole into a snapshot page; larger ones in parts (SSCAN). */
    static final int WHOLE_SET_MEMBERS = 1_000;
    private static final int SCAN_COUNT = 1_000;

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

    /**
     * A page of this replica's state for a joiner ({@link SnapshotPage}), from {@code position}, of about {@code maxBytes}
     * (at least one entry unless the scan is over). Reads while the applier keeps applying: nothing pauses. At
     * {@link SnapshotPage.Position#START} it first reads the applied table, then the keys, so every key of the transfer
     * holds at least what that table names. Sets of more than {@link #WHOLE_SET_MEMBERS} members are sent in parts
     * (SSCAN), so no page and no Redis call grows with the fleet.
     */
    public SnapshotPage readSnapshotPage(SnapshotPage.Position position, long maxBytes) {
        List<String> prefixes = keyspace.prefixes();
        if (position.prefix() > prefixes.size()) {
            throw new IllegalArgumentException("no managed prefix " + position.prefix());
        }
        // the table before any key: every key of the transfer holds at least what it names
        Map<String, Long> applied = position.start() ? appliedSeqs() : Map.of();
        try (Jedis jedis = pool.getResource()) {
            List<SnapshotPage.Entry> entries = new ArrayList<>();
            long bytes = 0;
            int prefix = position.prefix();
            String cursor = position.cursor();
            List<SnapshotPage.PendingSet> pending = new ArrayList<>(position.pending());
            while (bytes < maxBytes) {
                if (!pending.isEmpty()) {
                    SnapshotPage.PendingSet set = pending.get(0);
                    if (!keyspace.isManaged(set.key())) {
                        throw new IllegalArgumentException("not a managed key: " + set.key());
                    }
                    ScanResult<String> part = jedis.sscan(set.key(), set.cursor(), new ScanParams().count(SCAN_COUNT));
                    if (!part.getResult().isEmpty()) {
                        SnapshotPage.Entry entry = new SnapshotPage.Entry(SnapshotPage.Entry.Kind.SET_PART, set.key(), Map.of(),
                                new HashSet<>(part.getResult()), null);
                        entries.add(entry);
                        bytes += entry.size();
                    }
                    if (part.getCursor().equals(ScanParams.SCAN_POINTER_START)) {
                        pending.remove(0);
                    } else {
                        pending.set(0, new SnapshotPage.PendingSet(set.key(), part.getCursor()));
                    }
                    continue;
                }
                if (prefix == prefixes.size()) {
                    return new SnapshotPage(applied, entries, null);
                }
                // SCAN's COUNT is a hint of how many keys one call returns: about what the page's budget leaves room for
                int count = (int) Math.max(10, Math.min(SCAN_COUNT, (maxBytes - bytes) / 256));
                ScanParams params = new ScanParams().match(ReplicatedKeyspace.scanPattern(prefixes.get(prefix))).count(count);
                ScanResult<String> page = jedis.scan(cursor, params);
                for (SnapshotPage.Entry entry : readPage(jedis, page.getResult(), pending)) {
                    entries.add(entry);
                    bytes += entry.size();
                }
                cursor = page.getCursor();
                if (cursor.equals(ScanParams.SCAN_POINTER_START)) {
                    prefix++;
                }
            }
            if (prefix == prefixes.size() && pending.isEmpty()) {
                return new SnapshotPage(applied, entries, null);
            }
            return new SnapshotPage(applied, entries, new SnapshotPage.Position(prefix, cursor, pending));
        }
    }

    /**
     * Begins replacing this replica's state with a transfer's pages: marks the state incomplete
     * ({@link ReplicatedKeyspace#incompleteKey()}, before anything is deleted), then deletes every managed key, the applied
     * table and the command logs (a log that did not follow the new state would claim commands this replica no longer
     * holds in order). From here until {@link #completeReplacing} the state is incomplete, after a crash or restart too
     * ({@link #incompleteState()}). The applier must not apply meanwhile ({@link Applier#replaceState}).
     */
    public synchronized void beginReplacing(String why) {
        listeners.forEach(KeyWriteListener::replacing);
        try (Jedis jedis = pool.getResource()) {
            jedis.set(keyspace.incompleteKey(), why);
            deleteManagedKeys(jedis);
            deleteMatching(jedis, ReplicatedKeyspace.scanPattern(keyspace.logKey("")));
        } finally {
            listeners.forEach(KeyWriteListener::written);
        }
    }

    /**
     * Writes one page of a transfer ({@link #beginReplacing} first): a whole hash, set or string replaces its key, a part
     * of a large set is added to it. Idempotent: a page written twice, or a key that comes back in a later page (SCAN may
     * return a key twice; the later read is the newer), leaves the same state.
     *
     * @throws IllegalArgumentException if an entry names a key outside the managed keys (nothing of the page is written)
     */
    public synchronized void installPage(SnapshotPage page) {
        for (SnapshotPage.Entry entry : page.entries()) {
            if (!keyspace.isManaged(entry.key())) {
                throw new IllegalArgumentException("snapshot entry " + entry.key() + " is not a managed key");
            }
        }
        listeners.forEach(KeyWriteListener::replacing);
        try (Jedis jedis = pool.getResource()) {
            Pipeline pipeline = jedis.pipelined();
            for (SnapshotPage.Entry entry : page.entries()) {
                switch (entry.kind()) {
                    case HASH -> {
                        pipeline.del(entry.key());
                        if (!entry.pairs().isEmpty()) {
                            pipeline.hset(entry.key(), entry.pairs());
                        }
                    }
                    case SET -> {
                        pipeline.del(entry.key());
                        if (!entry.members().isEmpty()) {
                            pipeline.sadd(entry.key(), entry.members().toArray(String[]::new));
                        }
                    }
                    case SET_PART -> {
                        if (!entry.members().isEmpty()) {
                            pipeline.sadd(entry.key(), entry.members().toArray(String[]::new));
                        }
                    }
                    case STRING -> pipeline.set(entry.key(), entry.value());
                }
            }
            pipeline.sync();
        } finally {
            listeners.forEach(KeyWriteListener::written);
        }
    }

    /**
     * Ends a transfer whose every page is installed: writes {@code applied} (the first page's table) as the applied table
     * and removes the incomplete mark, in one transaction. The commands above {@code applied} are then fetched from the
     * peers' logs and applied again ({@link SnapshotPage}).
     */
    public synchronized void completeReplacing(Map<String, Long> applied) {
        listeners.forEach(KeyWriteListener::replacing);
        try (Jedis jedis = pool.getResource()) {
            Transaction complete = jedis.multi();
            if (!applied.isEmpty()) {
                Map<String, String> table = new HashMap<>();
                applied.forEach((origin, seq) -> table.put(origin, padded(seq)));
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
     * {@link #beginReplacing}), or empty if it is not. Read from Redis, so it holds across restarts of the replica.
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
        TreeMap<String, SnapshotPage.Entry> sorted = new TreeMap<>();
        forEachEntry(entry -> sorted.put(entry.key(), entry));
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            for (SnapshotPage.Entry entry : sorted.values()) {
                sha256.update(switch (entry.kind()) {
                    case HASH -> (byte) 'H';
                    case SET, SET_PART -> (byte) 'S';
                    case STRING -> (byte) 'V';
                });
                update(sha256, entry.key());
                switch (entry.kind()) {
                    case HASH -> new TreeMap<>(entry.pairs()).forEach((field, value) -> {
                        update(sha256, field);
                        update(sha256, value);
                    });
                    case SET, SET_PART -> new TreeSet<>(entry.members()).forEach(member -> update(sha256, member));
                    case STRING -> update(sha256, entry.value());
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
            case SET, SET_PART -> new KeyContent(entry.key(), KeyContent.Kind.SET, Map.of(), entry.members(), null);
            case STRING -> new KeyContent(entry.key(), KeyContent.Kind.STRING, Map.of(), Set.of(), entry.value());
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

    /** Every managed key and the applied table, each whole (for digests and comparisons, not for transfers). */
    private void forEachEntry(Consumer<SnapshotPage.Entry> consumer) {
        try (Jedis jedis = pool.getResource()) {
            Map<String, String> table = jedis.hgetAll(keyspace.appliedTableKey());
            if (!table.isEmpty()) {
                consumer.accept(new SnapshotPage.Entry(SnapshotPage.Entry.Kind.HASH, keyspace.appliedTableKey(), table, Set.of(),
                        null));
            }
            for (String prefix : keyspace.prefixes()) {
                ScanParams params = new ScanParams().match(ReplicatedKeyspace.scanPattern(prefix)).count(SCAN_COUNT);
                String cursor = ScanParams.SCAN_POINTER_START;
                do {
                    ScanResult<String> page = jedis.scan(cursor, params);
                    readPage(jedis, page.getResult(), null).forEach(consumer);
                    cursor = page.getCursor();
                } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            }
        }
    }

    /**
     * The content of {@code keys}, pipelined. With {@code largeSets}, a set of more than {@link #WHOLE_SET_MEMBERS} members
     * is not read but added there, to be sent in parts; without, every set is read whole.
     */
    private static List<SnapshotPage.Entry> readPage(Jedis jedis, List<String> keys, List<SnapshotPage.PendingSet> largeSets) {
        Pipeline types = jedis.pipelined();
        List<Response<String>> typeResponses = keys.stream().map(types::type).toList();
        types.sync();
        Pipeline reads = jedis.pipelined();
        List<Response<?>> contents = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            contents.add(switch (typeResponses.get(i).get()) {
                case "hash" -> reads.hgetAll(key);
                case "set" -> largeSets == null ? reads.smembers(key) : reads.scard(key);
                case "string" -> reads.get(key);
                case "none" -> null; // deleted since SCAN returned it
                default -> throw new IllegalStateException("managed key " + key + " holds an unsupported type");
            });
        }
        reads.sync();
        Pipeline sets = jedis.pipelined();
        Map<Integer, Response<Set<String>>> members = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            if (largeSets != null && typeResponses.get(i).get().equals("set")) {
                if ((Long) contents.get(i).get() > WHOLE_SET_MEMBERS) {
                    largeSets.add(new SnapshotPage.PendingSet(keys.get(i), ScanParams.SCAN_POINTER_START));
                } else {
                    members.put(i, sets.smembers(keys.get(i)));
                }
            }
        }
        sets.sync();
        List<SnapshotPage.Entry> entries = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            switch (typeResponses.get(i).get()) {
                case "hash" -> entries.add(new SnapshotPage.Entry(SnapshotPage.Entry.Kind.HASH, key, castMap(contents.get(i).get()),
                        Set.of(), null));
                case "set" -> {
                    Set<String> whole = largeSets == null
                            ? castSet(contents.get(i).get())
                            : members.containsKey(i) ? members.get(i).get() : null;
                    if (whole != null) {
                        entries.add(new SnapshotPage.Entry(SnapshotPage.Entry.Kind.SET, key, Map.of(), whole, null));
                    }
                }
                case "string" -> {
                    String value = (String) contents.get(i).get();
                    if (value != null) {
                        entries.add(new SnapshotPage.Entry(SnapshotPage.Entry.Kind.STRING, key, Map.of(), Set.of(), value));
                    }
                }
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
            deleteMatching(jedis, ReplicatedKeyspace.scanPattern(prefix));
        }
    }

    private static void deleteMatching(Jedis jedis, String pattern) {
        ScanParams params = new ScanParams().match(pattern).count(SCAN_COUNT);
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
