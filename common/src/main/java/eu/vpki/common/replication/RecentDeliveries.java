package eu.vpki.common.replication;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The most recent commands delivered to this replica, per origin, as received (encoded). When an
 * origin leaves the view, JGroups may have delivered its last commands to some survivors and not to
 * others (without FLUSH there is no virtual synchrony); each survivor then redelivers what it holds
 * of that origin, and every survivor applies what it lacks (see {@code docs/replication.md}).
 *
 * <p>Bounded per origin by a number of commands and a number of bytes, oldest dropped first.
 * Thread-safe: JGroups threads add, the replica's control thread reads.
 */
final class RecentDeliveries {

    private record Entry(long seq, byte[] encoded) {
    }

    private static final class PerOrigin {
        private final Deque<Entry> entries = new ArrayDeque<>();
        private long bytes;
    }

    private final int maxCommands;
    private final long maxBytes;
    private final Map<String, PerOrigin> origins = new ConcurrentHashMap<>();

    RecentDeliveries(int maxCommands, long maxBytes) {
        if (maxCommands < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("bounds must be positive");
        }
        this.maxCommands = maxCommands;
        this.maxBytes = maxBytes;
    }

    /** Records a delivered command (its id and the bytes it arrived as). */
    void add(CommandId id, byte[] encoded) {
        PerOrigin log = origins.computeIfAbsent(id.origin(), origin -> new PerOrigin());
        synchronized (log) {
            if (!log.entries.isEmpty() && log.entries.peekLast().seq() >= id.seq()) {
                return; // a redelivery or duplicate: the log holds each seq once, ascending
            }
            log.entries.addLast(new Entry(id.seq(), encoded));
            log.bytes += encoded.length;
            while (log.entries.size() > maxCommands || (log.bytes > maxBytes && log.entries.size() > 1)) {
                log.bytes -= log.entries.removeFirst().encoded().length;
            }
        }
    }

    /** {@code origin}'s recent commands, ascending by sequence number (contiguous as delivered). */
    List<byte[]> of(String origin) {
        PerOrigin log = origins.get(origin);
        if (log == null) {
            return List.of();
        }
        synchronized (log) {
            List<byte[]> encoded = new ArrayList<>(log.entries.size());
            log.entries.forEach(entry -> encoded.add(entry.encoded()));
            return encoded;
        }
    }
}
