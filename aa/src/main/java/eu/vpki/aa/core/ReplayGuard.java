package eu.vpki.aa.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Refuses a request seen before within the replay window. Local to this AA process and bounded:
 * at most {@code capacity} request fingerprints (the first 16 bytes of SHA-256 over the decrypted
 * request), each kept for {@code retention} after it was first seen, oldest first out. When the
 * cache is full an entry still inside its retention is evicted and counted
 * ({@link #earlyEvictions()}): size the capacity for the peak request rate times the retention
 * (docs/aa.md). Thread-safe; one short lock per request.
 */
public final class ReplayGuard {
    private record Fingerprint(long high, long low) {
    }

    private final long retentionMillis;
    private final int capacity;
    private final LinkedHashMap<Fingerprint, Long> seen;
    private final AtomicLong earlyEvictions = new AtomicLong();

    public ReplayGuard(Duration retention, int capacity) {
        if (retention.isNegative() || retention.isZero() || capacity < 1) {
            throw new IllegalArgumentException("replay retention must be positive and capacity at least 1");
        }
        this.retentionMillis = retention.toMillis();
        this.capacity = capacity;
        this.seen = new LinkedHashMap<>(Math.min(capacity, 1 << 16), 0.75f, false);
    }

    /**
     * Records the fingerprint, refusing it if it is already known and not yet expired.
     *
     * @param fingerprint at least 16 bytes (a hash of the request)
     * @throws PkiException {@link ErrorCode#REPLAYED_REQUEST} for a replay
     */
    public void checkAndRecord(byte[] fingerprint, Instant now) {
        ByteBuffer b = ByteBuffer.wrap(fingerprint);
        Fingerprint key = new Fingerprint(b.getLong(), b.getLong());
        long t = now.toEpochMilli();
        synchronized (seen) {
            expire(t);
            Long firstSeen = seen.get(key);
            if (firstSeen != null && t - firstSeen < retentionMillis) {
                throw new PkiException(ErrorCode.REPLAYED_REQUEST, "request already seen within the replay window");
            }
            seen.remove(key);
            seen.put(key, t);
            if (seen.size() > capacity) {
                Iterator<Map.Entry<Fingerprint, Long>> oldest = seen.entrySet().iterator();
                oldest.next();
                oldest.remove();
                earlyEvictions.incrementAndGet();
            }
        }
    }

    private void expire(long now) {
        Iterator<Map.Entry<Fingerprint, Long>> it = seen.entrySet().iterator();
        while (it.hasNext()) {
            if (now - it.next().getValue() >= retentionMillis) {
                it.remove();
            } else {
                return; // insertion order = first-seen order (the clock is monotone enough: see docs/aa.md)
            }
        }
    }

    /** Fingerprints currently held. */
    public int size() {
        synchronized (seen) {
            return seen.size();
        }
    }

    /** Entries evicted for capacity while still inside the retention: replays of those would pass. */
    public long earlyEvictions() {
        return earlyEvictions.get();
    }
}
