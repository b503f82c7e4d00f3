package eu.vpki.common.replication;

import java.util.Map;

/**
 * One deterministic Redis write inside a {@link Command}. The originating replica fixes every value
 * (versions, times, serials, random bytes) before broadcasting; applying reads no clock and no
 * randomness, so every replica computes the same result.
 *
 * <p>Under {@link ReplicationConfig.Order#FIFO} two origins' commands reach replicas in different
 * interleavings, so only operations that commute, or that pick a deterministic winner, converge:
 * <ul>
 *   <li>{@link PutIfNewer} / {@link DeleteIfNewer}: a terminal put wins over any non-terminal write,
 *       then the higher {@code (version, origin)} wins, wherever and whenever it is applied (a
 *       total order, so the maximum does not depend on the interleaving);</li>
 *   <li>{@link SetAdd} / {@link SetRemove}: commute except an add and a remove of the same member
 *       from different origins;</li>
 *   <li>{@link Put}: for write-once values (e.g. an index from a certificate hash to its record) or
 *       keys written by a single origin.</li>
 * </ul>
 * A key holds one kind of value; a command whose operation meets a key of another kind is rejected
 * as a whole, identically on every replica.
 */
public sealed interface Operation {

    /** The Redis key written; must lie under one of the keyspace's managed prefixes. */
    String key();

    /**
     * Replaces the record (a Redis hash) at {@code key} with {@code fields} if it wins over the stored
     * record: a terminal write wins over a non-terminal one whatever their versions, and a non-terminal
     * write never replaces a terminal record; otherwise the higher {@code (version, origin)} wins
     * (versions compared first, then origin ids byte-wise). Terminal marks a final state that no
     * concurrent or later change may undo (a revoked station). The stored record carries the reserved
     * fields {@value StoredRecord#VERSION_FIELD}, {@value StoredRecord#ORIGIN_FIELD} and, when terminal,
     * {@value StoredRecord#TERMINAL_FIELD}; field names must not start with {@code @}.
     */
    record PutIfNewer(String key, long version, Map<String, String> fields, boolean terminal) implements Operation {
        public PutIfNewer {
            requireKey(key);
            requireVersion(version);
            fields = Map.copyOf(fields);
            fields.forEach((name, value) -> {
                if (name.isEmpty() || name.startsWith("@")) {
                    throw new IllegalArgumentException("field names must be non-empty and not start with @: " + name);
                }
            });
        }

        /** A non-terminal put. */
        public PutIfNewer(String key, long version, Map<String, String> fields) {
            this(key, version, fields, false);
        }
    }

    /**
     * Deletes the record at {@code key} if {@code (version, origin)} is above the stored pair and the
     * stored record is not terminal, leaving a tombstone (only the reserved fields plus {@value StoredRecord#DELETED_FIELD}) so that an older put
     * arriving later still loses.
     */
    record DeleteIfNewer(String key, long version) implements Operation {
        public DeleteIfNewer {
            requireKey(key);
            requireVersion(version);
        }
    }

    /** Adds {@code member} to the set at {@code key} (idempotent). */
    record SetAdd(String key, String member) implements Operation {
        public SetAdd {
            requireKey(key);
            requireValue(member);
        }
    }

    /** Removes {@code member} from the set at {@code key} (idempotent). */
    record SetRemove(String key, String member) implements Operation {
        public SetRemove {
            requireKey(key);
            requireValue(member);
        }
    }

    /** Sets the string at {@code key} to {@code value} (idempotent, no counter). */
    record Put(String key, String value) implements Operation {
        public Put {
            requireKey(key);
            requireValue(value);
        }
    }

    private static void requireKey(String key) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("key must be non-empty");
        }
    }

    private static void requireVersion(long version) {
        if (version < 0) {
            throw new IllegalArgumentException("versions are non-negative, got " + version);
        }
    }

    private static void requireValue(String value) {
        if (value == null) {
            throw new IllegalArgumentException("value must not be null");
        }
    }
}
