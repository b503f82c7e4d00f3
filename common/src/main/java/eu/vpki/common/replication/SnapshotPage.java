package eu.vpki.common.replication;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One page of a state transfer, as a provider reads it from its Redis ({@link RedisStateMachine#readSnapshotPage}) and a
 * joiner installs it ({@link RedisStateMachine#installPage}): managed keys with their content, and where the next page
 * begins. The first page (asked for at {@link Position#START}) also carries the provider's applied table as it was before
 * it read any key: every key of every page was read after it, so it holds at least what that table names, maybe more, and
 * the joiner, once it installed every page, fetches the commands above that table from its peers' logs and applies them
 * again. Applying is idempotent and every operation converges whatever the order ({@link Operation}), so a state read while
 * the provider kept applying (a fuzzy snapshot) plus the commands after its table is the provider's state: no provider
 * pauses for a transfer. See {@code docs/replication.md}, "Joining with an empty or incomplete state".
 *
 * @param applied the provider's applied table before the first page was read (origin to last applied sequence number);
 *                empty on every page but the first
 * @param entries managed keys and their content, each whole, or a part of a large set ({@link Entry.Kind#SET_PART})
 * @param next    where the next page begins; null after the last page
 */
public record SnapshotPage(Map<String, Long> applied, List<Entry> entries, Position next) {

    public SnapshotPage {
        applied = Map.copyOf(applied);
        entries = List.copyOf(entries);
    }

    /** Whether this is the last page of the transfer. */
    public boolean last() {
        return next == null;
    }

    /** A managed key and its content (or, for {@link Kind#SET_PART}, some of its members). */
    public record Entry(Kind kind, String key, Map<String, String> pairs, Set<String> members, String value) {
        /** What an entry holds. */
        public enum Kind {
            /** A whole hash: replaces the key. */
            HASH,
            /** A whole set: replaces the key. */
            SET,
            /** Some members of a large set, read with SSCAN: added to the key. */
            SET_PART,
            /** A string: replaces the key. */
            STRING
        }

        public Entry {
            pairs = Map.copyOf(pairs);
            members = Set.copyOf(members);
            if (key == null || key.isEmpty()) {
                throw new IllegalArgumentException("an entry needs a key");
            }
            if (kind == Kind.STRING && value == null) {
                throw new IllegalArgumentException("a string entry needs a value");
            }
        }

        /** About how many bytes it takes on the wire (for page budgets). */
        long size() {
            long size = key.length() + 8;
            for (Map.Entry<String, String> pair : pairs.entrySet()) {
                size += pair.getKey().length() + pair.getValue().length() + 4;
            }
            for (String member : members) {
                size += member.length() + 2;
            }
            return value == null ? size : size + value.length();
        }
    }

    /**
     * Where a page begins in the provider's Redis: the managed prefix being scanned, the SCAN cursor within it, and large
     * sets met so far whose members are still to be sent (each with its SSCAN cursor). Meaningful to the provider that
     * answered it only: a transfer that changes provider starts again at {@link #START}.
     *
     * @param prefix  index of the managed prefix being scanned ({@link ReplicatedKeyspace#prefixes()}); their number once
     *                all are scanned
     * @param cursor  the SCAN cursor within that prefix ("0" at its start)
     * @param pending large sets whose members are sent in parts, first one first
     */
    public record Position(int prefix, String cursor, List<PendingSet> pending) {
        /** The first page: with the provider's applied table. */
        public static final Position START = new Position(0, "0", List.of());

        public Position {
            pending = List.copyOf(pending);
            if (prefix < 0 || cursor == null || cursor.isEmpty()) {
                throw new IllegalArgumentException("a position needs a prefix index and a cursor");
            }
        }

        boolean start() {
            return equals(START);
        }
    }

    /** A large set whose members are sent in parts: its key and the SSCAN cursor of the next part. */
    public record PendingSet(String key, String cursor) {
        public PendingSet {
            if (key == null || key.isEmpty() || cursor == null || cursor.isEmpty()) {
                throw new IllegalArgumentException("a pending set needs a key and a cursor");
            }
        }
    }
}
