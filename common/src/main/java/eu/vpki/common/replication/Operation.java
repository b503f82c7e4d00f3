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
 *       keys written by a single origin;</li>
 *   <li>{@link PutPointerIfNewer}: a put-if-newer of a pointer that also marks every record a losing pointer
 *       names as final, so the records named by concurrent pointer writes end the same whatever the order.</li>
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

    /**
     * A pointer: a put-if-newer of the record {@code {field: value}} at {@code key} (never terminal) that names the
     * record at {@link #target()} ({@code targetPrefix + value}), with a rule that makes concurrent pointer writes
     * converge on the records they name. Applied against the stored pointer, which names {@code targetPrefix} plus its
     * own {@code field}:
     * <ul>
     *   <li>if this write wins, the record the stored pointer named is <em>superseded</em>;</li>
     *   <li>if it loses, the record this write names is superseded;</li>
     *   <li>nothing is superseded when both name the same record.</li>
     * </ul>
     * Superseding a record sets its {@code statusField} to {@code supersededStatus} and marks it terminal, keeping its
     * version, origin and every other field, and only if it exists, is live (not a tombstone) and not terminal yet:
     * what it writes depends on nothing but the record, so every path that supersedes a record writes it alike. So
     * whatever the order in which replicas apply the pointer writes of one key, they end with the pointer at the
     * highest {@code (version, origin)} and every other record ever named by a pointer write of that key superseded
     * (each write either lost when it arrived, or won and was displaced later by the winner). A record named by a
     * losing pointer is superseded even when it is applied after the winner.
     *
     * <p>That holds under these conditions, which the caller keeps (the fleet's latest-EC pointer does,
     * {@code FleetCommands.enrolled}): the pointer's key is written only by this operation; the record a pointer
     * names is written, non-terminal and once, by the same command before the pointer (or earlier), and every later
     * write of it is terminal. Then the superseded record (its own content, terminal) is the same on every replica,
     * and a terminal write of it with a higher version (an explicit supersede) wins over it in any order.
     *
     * <p>The record superseded because this write won is named by the stored pointer, not by the command: the state
     * machine tells {@link KeyWriteListener}s of it after the script wrote it ({@link KeyWriteListener#writing}). A
     * command whose pointer key or named record holds another kind of value is rejected as a whole; a record named by
     * the stored pointer that is not a hash is left alone. Operation tag 7 on the wire ({@link CommandCodec}): replicas
     * that predate it refuse such commands, so every replica of a group must run a version that has it.
     *
     * @param key              the pointer record
     * @param version          the pointer's version, as for {@link PutIfNewer}
     * @param field            the pointer record's one field, holding the id of the record it names
     * @param value            the id of the record it names
     * @param targetPrefix     the key of a named record is this prefix followed by its id
     * @param statusField      the field of a named record set when it is superseded
     * @param supersededStatus the value set there
     */
    record PutPointerIfNewer(String key, long version, String field, String value, String targetPrefix, String statusField,
                             String supersededStatus)
            implements
                Operation {
        public PutPointerIfNewer {
            requireKey(key);
            requireVersion(version);
            requireFieldName(field);
            requireValue(value);
            requireKey(targetPrefix);
            requireFieldName(statusField);
            requireValue(supersededStatus);
            if (value.isEmpty()) {
                throw new IllegalArgumentException("a pointer names a record: its value must be non-empty");
            }
        }

        /** The key of the record this pointer names. */
        public String target() {
            return targetPrefix + value;
        }
    }

    private static void requireFieldName(String name) {
        if (name == null || name.isEmpty() || name.startsWith("@")) {
            throw new IllegalArgumentException("field names must be non-empty and not start with @: " + name);
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
