package eu.vpki.common.replication;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A record written by {@link Operation.PutIfNewer} or tombstoned by {@link Operation.DeleteIfNewer}, as
 * read back from Redis with {@code HGETALL}: the caller's fields plus the reserved {@code @} fields.
 *
 * @param version  the version of the write that won
 * @param origin   the origin (replica incarnation, {@link CommandId}) that wrote it
 * @param deleted  whether the record is a tombstone
 * @param terminal whether it was written as terminal: no later non-terminal write replaces it
 * @param fields   the caller's fields (empty for a tombstone)
 */
public record StoredRecord(long version, String origin, boolean deleted, boolean terminal, Map<String, String> fields) {

    public static final String VERSION_FIELD = "@version";
    public static final String ORIGIN_FIELD = "@origin";
    public static final String DELETED_FIELD = "@deleted";
    public static final String TERMINAL_FIELD = "@terminal";

    public StoredRecord {
        fields = Map.copyOf(fields);
    }

    /** Parses an {@code HGETALL} result; empty when the key holds no record. */
    public static Optional<StoredRecord> from(Map<String, String> hash) {
        String version = hash.get(VERSION_FIELD);
        if (version == null) {
            return Optional.empty();
        }
        Map<String, String> fields = new HashMap<>(hash);
        fields.remove(VERSION_FIELD);
        String origin = fields.remove(ORIGIN_FIELD);
        boolean deleted = fields.remove(DELETED_FIELD) != null;
        boolean terminal = fields.remove(TERMINAL_FIELD) != null;
        return Optional.of(new StoredRecord(Long.parseLong(version), origin, deleted, terminal, fields));
    }

    /** The fields of a live record; empty for a tombstone or a missing record. */
    public static Optional<Map<String, String>> liveFields(Map<String, String> hash) {
        return from(hash).filter(record -> !record.deleted()).map(StoredRecord::fields);
    }
}
