package eu.vpki.common.fleet;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.replication.KeyWriteListener;
import eu.vpki.common.replication.RecordReader;
import eu.vpki.common.replication.RedisStateMachine;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.replication.ReplicaStatus;
import eu.vpki.common.replication.StoredRecord;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Reads the fleet state from this replica's own Redis. What it returns is what this replica has
 * applied; for read-your-writes, wait for the writer's token first ({@code Replica.awaitApplied}).
 *
 * <p>Fails closed: every read first checks that the replica serves ({@link ReplicaStatus#serving()}:
 * in a majority, caught up, no gap, its Redis working) and otherwise refuses with
 * {@link ErrorCode#REPLICATION_UNAVAILABLE}, so a replica cut off in a minority, catching up after a
 * restart, or whose Redis failed never validates or enrols from a stale or partial state.
 */
public final class FleetState {
    private final JedisPool redis;
    private final RecordReader reader;
    private final RecordDecoding decoding;
    private final Supplier<ReplicaStatus> replica;
    /** Null: every {@link #ecWithStation} reads Redis. */
    private final EcStationCache ecs;

    /**
     * Reads with {@link RecordDecoding#DEFAULT_ENTRIES} decoded certificates and keys kept.
     *
     * @param replica the status of the replica whose Redis this is ({@code replica::status})
     */
    public FleetState(JedisPool redis, Supplier<ReplicaStatus> replica) {
        this(redis, new RecordDecoding(RecordDecoding.DEFAULT_ENTRIES), replica);
    }

    public FleetState(JedisPool redis, RecordDecoding decoding, Supplier<ReplicaStatus> replica) {
        this(redis, decoding, replica, null);
    }

    private FleetState(JedisPool redis, RecordDecoding decoding, Supplier<ReplicaStatus> replica, EcStationCache ecs) {
        this.redis = redis;
        this.reader = new RecordReader(redis);
        this.decoding = decoding;
        this.replica = replica;
        this.ecs = ecs;
    }

    /**
     * Reads from {@code replica}'s Redis and keeps up to {@code ecEntries} results of {@link #ecWithStation}
     * in an {@link EcStationCache} that the replica tells of every write (never older than what it applied).
     */
    public static FleetState withEcCache(JedisPool redis, Replica replica, int ecEntries) {
        return withEcCache(redis, replica::listen, replica::status, ecEntries);
    }

    /** As {@link #withEcCache(JedisPool, Replica, int)}, for a state machine and status of the caller's (tests). */
    static FleetState withEcCache(JedisPool redis, RedisStateMachine stateMachine, Supplier<ReplicaStatus> replica, int ecEntries) {
        return withEcCache(redis, stateMachine::listen, replica, ecEntries);
    }

    private static FleetState withEcCache(JedisPool redis, Consumer<KeyWriteListener> writes, Supplier<ReplicaStatus> replica,
                                          int ecEntries) {
        EcStationCache ecs = new EcStationCache(ecEntries);
        writes.accept(ecs);
        return new FleetState(redis, new RecordDecoding(RecordDecoding.DEFAULT_ENTRIES), replica, ecs);
    }

    /** Refuses unless the replica serves: nothing is read from a state that may be stale or partial. */
    private ReplicaStatus requireServing() {
        ReplicaStatus status = replica.get();
        if (!status.serving()) {
            throw new PkiException(ErrorCode.REPLICATION_UNAVAILABLE,
                    "replica " + status.replicaId() + " is " + status.state() + ": " + status.detail());
        }
        return status;
    }

    /** A station and its latest EC, as read together. */
    public record StationAndLatestEc(Optional<StationRecord> station, Optional<EcRecord> latestEc) {
    }

    /** An EC and the station it was issued to, as read together. */
    public record EcAndStation(Optional<EcRecord> ec, Optional<StationRecord> station) {
    }

    /**
     * The station and its latest EC in one Redis round trip (what an initial enrolment and the
     * Operator's station view need); the EC is empty if the station never enrolled.
     */
    public StationAndLatestEc stationWithLatestEc(String canonicalId) {
        requireServing();
        List<Optional<StoredRecord>> read = reader.read(List.of(FleetKeys.station(canonicalId),
                FleetKeys.stationPermissions(canonicalId), FleetKeys.stationEc(canonicalId)),
                List.of(new RecordReader.Reference(2, "ec", FleetKeys.EC)));
        return new StationAndLatestEc(read.get(0).map(r -> StationRecord.from(r, read.get(1), decoding)),
                read.get(3).map(r -> EcRecord.from(r, decoding)));
    }

    /**
     * The EC and the station it belongs to in one Redis round trip (what a re-enrolment and an
     * authorization validation need); the station is empty if the EC is unknown. With an
     * {@link EcStationCache}, what an earlier call read while no write to these records has begun since.
     */
    public EcAndStation ecWithStation(HashedId8 ec) {
        ReplicaStatus status = requireServing();
        if (ecs == null) {
            return readEcWithStation(ec);
        }
        EcAndStation cached = ecs.find(ec, status.origin());
        if (cached != null) {
            return cached;
        }
        long readStart = ecs.readStart();
        EcAndStation read = readEcWithStation(ec);
        ecs.offer(ec, status.origin(), readStart, read);
        return read;
    }

    /**
     * What {@link #ecWithStation} answers without a read of Redis: the records an earlier call read and no write to
     * them has begun since; empty when they are not kept (or there is no {@link EcStationCache}).
     */
    public Optional<EcAndStation> keptEcWithStation(HashedId8 ec) {
        ReplicaStatus status = requireServing();
        return ecs == null ? Optional.empty() : Optional.ofNullable(ecs.find(ec, status.origin()));
    }

    private EcAndStation readEcWithStation(HashedId8 ec) {
        List<Optional<StoredRecord>> read = reader.read(List.of(FleetKeys.ec(ec)),
                List.of(new RecordReader.Reference(0, "station", FleetKeys.STATION),
                        new RecordReader.Reference(0, "station", FleetKeys.STATION_PERMISSIONS)));
        return new EcAndStation(read.get(0).map(r -> EcRecord.from(r, decoding)),
                read.get(1).map(r -> StationRecord.from(r, read.get(2), decoding)));
    }

    /** A live station (its station record and permissions register, read together); empty if never registered. */
    public Optional<StationRecord> station(String canonicalId) {
        requireServing();
        List<Optional<StoredRecord>> read = reader.read(List.of(FleetKeys.station(canonicalId),
                FleetKeys.stationPermissions(canonicalId)), List.of());
        return read.get(0).map(r -> StationRecord.from(r, read.get(1), decoding));
    }

    public Optional<EcRecord> ec(HashedId8 id) {
        return record(FleetKeys.ec(id)).map(r -> EcRecord.from(r, decoding));
    }

    /** The station's latest EC record, if it ever enrolled. */
    public Optional<EcRecord> latestEc(String canonicalId) {
        return record(FleetKeys.stationEc(canonicalId))
                .map(r -> HashedId8.fromHex(r.fields().get("ec")))
                .flatMap(this::ec);
    }

    /**
     * One page of an operator's fleet.
     *
     * @param canonicalIds the page's ids, sorted within the page
     * @param nextCursor   the cursor of the next page; null after the last
     */
    public record FleetPage(List<String> canonicalIds, String nextCursor) {
    }

    /**
     * One page of an operator's fleet from {@code cursor} ({@code "0"} for the first), about {@code limit} ids:
     * one {@code SSCAN} of the fleet set, so one call never copies a fleet of millions whole nor blocks Redis for
     * long. Redis's guarantees for a scan hold: every id in the fleet from the first page to the last is returned at
     * least once; an id added or removed meanwhile may or may not be; a page may hold somewhat more than
     * {@code limit} ids (COUNT is a hint), and a fleet small enough for Redis's compact set encoding (128 ids by
     * default) comes whole in the first page.
     *
     * @param cursor a cursor a previous page returned, or {@code "0"}: decimal digits
     * @throws IllegalArgumentException for a cursor that is not decimal digits or a limit below 1
     */
    public FleetPage fleetPage(String operatorId, String cursor, int limit) {
        if (cursor == null || cursor.isEmpty() || cursor.length() > 20 || !cursor.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("a cursor is the decimal number a previous page returned, or 0");
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        requireServing();
        try (Jedis jedis = redis.getResource()) {
            ScanResult<String> page = jedis.sscan(FleetKeys.operator(operatorId), cursor, new ScanParams().count(limit));
            List<String> ids = new ArrayList<>(new TreeSet<>(page.getResult()));
            return new FleetPage(List.copyOf(ids), page.isCompleteIteration() ? null : page.getCursor());
        }
    }

    /** Canonical ids of an operator's fleet, sorted: the whole set in one call (tests and small fleets; pages: {@link #fleetPage}). */
    public Set<String> fleet(String operatorId) {
        requireServing();
        try (Jedis jedis = redis.getResource()) {
            return new TreeSet<>(jedis.smembers(FleetKeys.operator(operatorId)));
        }
    }

    private Optional<StoredRecord> record(String key) {
        requireServing();
        Map<String, String> hash;
        try (Jedis jedis = redis.getResource()) {
            hash = jedis.hgetAll(key);
        }
        return StoredRecord.from(hash).filter(r -> !r.deleted());
    }
}
