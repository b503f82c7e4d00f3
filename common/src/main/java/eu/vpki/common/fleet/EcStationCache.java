package eu.vpki.common.fleet;

import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.replication.KeyWriteListener;

import java.util.Collection;
import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The EC and station records of {@link FleetState#ecWithStation}, as read together from this replica's
 * Redis, kept for the next request with the same EC (a station asks for many ATs with one EC), and
 * never answered older than what this replica has applied: the replica's state machine, the only
 * writer of its managed keys, tells it of every write before the write is sent ({@link KeyWriteListener}),
 * and that invalidates every entry read from a key it writes. An EC superseded by the latest-EC pointer rule
 * because a concurrent enrolment's pointer replaced the one naming it ({@link FleetCommands#enrolled}) is named by
 * no operation: the state machine tells of it once Redis answered, before {@code written()} and before the
 * watermarks rise, and that stamp invalidates the entry the same way (an entry offered from a read made before the
 * stamp holds a lower stamp; one offered after it started later than the last returned write, so is refused).
 *
 * <p><b>How the invalidation is exact.</b> Every write gets a number, raised before it is sent. Each
 * key falls in one of {@value #STRIPES} stripes, and a stripe holds the number of the last write that
 * began on one of its keys ({@link #replacing} stamps every stripe at once). An entry keeps the highest
 * stamp of its three keys' stripes (the EC record, the station record and the station's permissions
 * register) as they were after its read, and holds while none of them was stamped since. An entry is
 * kept only if that stamp is not above the last write that had <em>returned</em> before the read
 * started: so no write to its keys was in progress or still to come when Redis answered it, and a
 * reader racing a write (read the old value, the write lands and stamps, then the reader offers the
 * old value) keeps nothing. Two keys in one stripe invalidate each other's entries now and then; that
 * only costs a read. An entry is also tied to the replica's incarnation (its origin): after a Redis
 * failure the replica joins again as a new origin and every earlier entry is void, since its Redis
 * may have lost writes that the entry reflects. Reads are gated by {@link FleetState} as before: a
 * replica that does not serve answers nothing, cached or not.
 *
 * <p>Bounded: at most {@code entries}; when full, an arbitrary entry goes. Thread-safe. Only an EC that
 * exists is kept (an unknown EC is read every time, so made-up ids cannot fill it).
 */
public final class EcStationCache implements KeyWriteListener {
    static final int STRIPES = 1 << 16;

    private final int entries;
    private final ConcurrentHashMap<HashedId8, Entry> cached;
    /** Per stripe, the number of the last write that began on one of its keys. */
    private final AtomicLongArray stamps = new AtomicLongArray(STRIPES);
    /** The number of the last replacement of the whole keyspace: it stamped every stripe. */
    private volatile long replaced;
    /** The number of the last write begun; writes never overlap (the state machine serialises them). */
    private final AtomicLong begun = new AtomicLong();
    /** The number of the last write that returned. */
    private volatile long returned;

    private record Entry(FleetState.EcAndStation value, String origin, int ecStripe, int stationStripe,
                         int permissionsStripe, long stamp) {
    }

    /** @param entries at most this many ECs kept, at least 1 */
    public EcStationCache(int entries) {
        if (entries < 1) {
            throw new IllegalArgumentException("entries must be >= 1, got " + entries);
        }
        this.entries = entries;
        this.cached = new ConcurrentHashMap<>(Math.min(entries, 1 << 16));
    }

    @Override
    public void writing(Collection<String> keys) {
        long number = begun.incrementAndGet();
        for (String key : keys) {
            stamps.set(stripe(key), number);
        }
    }

    @Override
    public void replacing() {
        replaced = begun.incrementAndGet();
    }

    @Override
    public void written() {
        returned = begun.get();
    }

    /** Where a read starts: pass it to {@link #offer} with what the read found. */
    long readStart() {
        return returned;
    }

    /** The EC and its station as last read, if that is still what this replica holds; null otherwise. */
    FleetState.EcAndStation find(HashedId8 ec, String origin) {
        Entry entry = cached.get(ec);
        if (entry == null) {
            return null;
        }
        if (entry.origin().equals(origin) && stampOf(entry.ecStripe(), entry.stationStripe(), entry.permissionsStripe()) <= entry.stamp()) {
            return entry.value();
        }
        cached.remove(ec, entry);
        return null;
    }

    /**
     * Keeps what a read of {@code ec} that started at {@code readStart} found, unless a write to its keys
     * may have been in progress or begun since (then the next request reads again).
     */
    void offer(HashedId8 ec, String origin, long readStart, FleetState.EcAndStation read) {
        if (read.ec().isEmpty()) {
            return;
        }
        String station = read.ec().get().stationId();
        int ecStripe = stripe(FleetKeys.ec(ec));
        int stationStripe = stripe(FleetKeys.station(station));
        int permissionsStripe = stripe(FleetKeys.stationPermissions(station));
        long stamp = stampOf(ecStripe, stationStripe, permissionsStripe);
        if (stamp > readStart) {
            return;
        }
        if (cached.size() >= entries && !cached.containsKey(ec)) {
            Iterator<HashedId8> any = cached.keySet().iterator();
            if (any.hasNext()) {
                cached.remove(any.next());
            }
        }
        cached.put(ec, new Entry(read, origin, ecStripe, stationStripe, permissionsStripe, stamp));
    }

    /** How many ECs are kept now (for tests). */
    int size() {
        return cached.size();
    }

    private long stampOf(int ecStripe, int stationStripe, int permissionsStripe) {
        return Math.max(replaced, Math.max(stamps.get(ecStripe), Math.max(stamps.get(stationStripe), stamps.get(permissionsStripe))));
    }

    static int stripe(String key) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & (STRIPES - 1);
    }
}
