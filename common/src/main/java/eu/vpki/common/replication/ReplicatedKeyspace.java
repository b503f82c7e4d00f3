package eu.vpki.common.replication;

import java.util.List;

/**
 * The Redis keys a replica group owns: every key under one of {@code prefixes}, plus the table of the
 * last applied sequence number per origin. State transfer ships exactly these keys; nothing else in the
 * replica's Redis is touched. Only the replication library may write under these prefixes. Beside
 * them each replica keeps its command log, one stream per origin at {@link #logKey(String)}: the
 * commands it applied, for peers that lack them; it is this replica's own, neither replicated nor
 * part of the digest.
 *
 * @param prefixes        non-overlapping key prefixes, e.g. {@code ea:station:}, {@code ea:ec:}
 * @param appliedTableKey the hash {@code origin -> last applied seq}; outside every prefix
 */
public record ReplicatedKeyspace(List<String> prefixes, String appliedTableKey) {

    public static final String DEFAULT_APPLIED_TABLE_KEY = "vpki:replication:applied";

    public ReplicatedKeyspace {
        prefixes = List.copyOf(prefixes);
        if (prefixes.isEmpty()) {
            throw new IllegalArgumentException("at least one key prefix");
        }
        for (String prefix : prefixes) {
            if (prefix.isEmpty()) {
                throw new IllegalArgumentException("key prefixes must be non-empty");
            }
            for (String other : prefixes) {
                if (prefix != other && other.startsWith(prefix)) {
                    throw new IllegalArgumentException("key prefixes overlap: " + prefix + " and " + other);
                }
            }
        }
        if (appliedTableKey == null || appliedTableKey.isEmpty()) {
            throw new IllegalArgumentException("applied-table key must be non-empty");
        }
        for (String prefix : prefixes) {
            if (appliedTableKey.startsWith(prefix) || prefix.startsWith(appliedTableKey)) {
                throw new IllegalArgumentException("applied-table key " + appliedTableKey + " and prefix " + prefix
                        + " overlap (the command logs live under the applied-table key)");
            }
        }
    }

    /** The keyspace of {@code prefixes} with the default applied-table key. */
    public static ReplicatedKeyspace of(String... prefixes) {
        return new ReplicatedKeyspace(List.of(prefixes), DEFAULT_APPLIED_TABLE_KEY);
    }

    /** The key of {@code origin}'s command log: {@code <appliedTableKey>:log:<origin>}. */
    public String logKey(String origin) {
        return appliedTableKey + ":log:" + origin;
    }

    /**
     * The key that marks this replica's state as incomplete while a state transfer replaces it:
     * {@code <appliedTableKey>:incomplete}, set before the first managed key is deleted and removed in the same
     * transaction that writes the applied table, last ({@link RedisStateMachine#restore}). Outside the managed keys,
     * like the logs: neither replicated nor part of the digest.
     */
    public String incompleteKey() {
        return appliedTableKey + ":incomplete";
    }

    public boolean isManaged(String key) {
        for (String prefix : prefixes) {
            if (key.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The SCAN MATCH pattern for {@code prefix}, with glob characters escaped. */
    static String scanPattern(String prefix) {
        StringBuilder pattern = new StringBuilder(prefix.length() + 2);
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                pattern.append('\\');
            }
            pattern.append(c);
        }
        return pattern.append('*').toString();
    }
}
