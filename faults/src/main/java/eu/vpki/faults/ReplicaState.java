package eu.vpki.faults;

import eu.vpki.common.replication.RedisStateMachine.KeyContent;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One replica's replicated state as read from its own Redis after the run, through the replication
 * library ({@code RedisStateMachine}): the digest, the applied table and every managed key's content.
 *
 * @param replica  the replica id
 * @param digest   {@code RedisStateMachine.digest()}; null if the Redis could not be read
 * @param applied  last applied sequence number per origin
 * @param contents every managed key (and the applied table) with its content
 * @param error    why the Redis could not be read, else null
 */
public record ReplicaState(String replica, String digest, Map<String, Long> applied, SortedMap<String, KeyContent> contents,
                           String error) {
    public ReplicaState {
        applied = Map.copyOf(applied);
        contents = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(contents));
    }

    public static ReplicaState unreadable(String replica, String error) {
        return new ReplicaState(replica, null, Map.of(), new TreeMap<>(), error);
    }

    public boolean readable() {
        return error == null;
    }

    /** The hash at {@code key}, empty if the key is absent or not a hash. */
    public Map<String, String> hash(String key) {
        KeyContent c = contents.get(key);
        return c == null || c.kind() != KeyContent.Kind.HASH ? Map.of() : c.hash();
    }

    public java.util.Set<String> members(String key) {
        KeyContent c = contents.get(key);
        return c == null || c.kind() != KeyContent.Kind.SET ? java.util.Set.of() : c.members();
    }
}
