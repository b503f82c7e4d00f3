package eu.vpki.common.fleet;

import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.replication.StoredRecord;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the fleet state from this replica's own Redis. What it returns is what this replica has
 * applied; for read-your-writes, wait for the writer's token first ({@code Replica.awaitApplied}).
 */
public final class FleetState {
    private final JedisPool redis;
    private final RecordDecoding decoding;

    /** Reads with {@link RecordDecoding#DEFAULT_ENTRIES} decoded certificates and keys kept. */
    public FleetState(JedisPool redis) {
        this(redis, new RecordDecoding(RecordDecoding.DEFAULT_ENTRIES));
    }

    public FleetState(JedisPool redis, RecordDecoding decoding) {
        this.redis = redis;
        this.decoding = decoding;
    }

    /** A live station record; empty if never registered. */
    public Optional<StationRecord> station(String canonicalId) {
        return record(FleetKeys.station(canonicalId)).map(r -> StationRecord.from(r, decoding));
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

    /** Canonical ids of an operator's fleet, sorted. */
    public Set<String> fleet(String operatorId) {
        try (Jedis jedis = redis.getResource()) {
            return new TreeSet<>(jedis.smembers(FleetKeys.operator(operatorId)));
        }
    }

    private Optional<StoredRecord> record(String key) {
        Map<String, String> hash;
        try (Jedis jedis = redis.getResource()) {
            hash = jedis.hgetAll(key);
        }
        return StoredRecord.from(hash).filter(r -> !r.deleted());
    }
}
