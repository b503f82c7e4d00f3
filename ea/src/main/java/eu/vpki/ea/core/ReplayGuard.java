package eu.vpki.ea.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Refuses stale and replayed requests. A request is fresh if its generation time lies in
 * {@code [now - window, now + skew]}; a fresh request whose body hash was seen before is a replay.
 * A hash is kept until its generation time leaves the window (after that the freshness check
 * refuses it anyway), so the cache holds at most {@code rate x window} entries. It is local to the
 * replica: a replay sent to another replica within the window is caught there only by the state
 * checks (a re-enrolment's signing EC is superseded by then; see {@code docs/ea.md}).
 */
public final class ReplayGuard {
    private record Key(long high, long low) {
    }

    private final Duration window;
    private final Duration skew;
    private final int maxEntries;
    private final Clock clock;
    private final Map<Key, Long> seen = new ConcurrentHashMap<>();
    private final AtomicLong inserts = new AtomicLong();

    public ReplayGuard(Duration window, Duration skew, int maxEntries, Clock clock) {
        this.window = window;
        this.skew = skew;
        this.maxEntries = maxEntries;
        this.clock = clock;
    }

    /**
     * @param requestHash  the first 16 bytes of SHA-256 over the request body
     * @param generationTime the signed generation time of the request
     * @throws PkiException OUTDATED_REQUEST, REPLAYED_REQUEST, or INTERNAL_ERROR when the cache is full of live entries
     */
    public void check(byte[] requestHash, Instant generationTime) {
        Instant now = clock.instant();
        if (generationTime.isBefore(now.minus(window)) || generationTime.isAfter(now.plus(skew))) {
            throw new PkiException(ErrorCode.OUTDATED_REQUEST, "generation time " + generationTime + " outside ["
                    + now.minus(window) + ", " + now.plus(skew) + "]");
        }
        ByteBuffer b = ByteBuffer.wrap(requestHash);
        Key key = new Key(b.getLong(), b.getLong());
        if ((inserts.incrementAndGet() & 0xFFF) == 0 || seen.size() >= maxEntries) {
            purge(now);
            if (seen.size() >= maxEntries) {
                throw new PkiException(ErrorCode.INTERNAL_ERROR, "replay cache full (" + maxEntries + " live entries)");
            }
        }
        long expiry = generationTime.plus(window).toEpochMilli();
        if (seen.putIfAbsent(key, expiry) != null) {
            throw new PkiException(ErrorCode.REPLAYED_REQUEST, "request already received within " + window);
        }
    }

    int size() {
        return seen.size();
    }

    private void purge(Instant now) {
        long nowMillis = now.toEpochMilli();
        seen.values().removeIf(expiry -> expiry < nowMillis);
    }
}
