package eu.vpki.shell.replay;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.replay.ReplayCache;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ReplayCache} on a Caffeine cache: each fingerprint (its first 16 bytes) is kept for
 * {@code retention} after it was first seen, at most {@code capacity} of them. When it is full of
 * live entries, {@link WhenFull#REFUSE} refuses the request ({@code INTERNAL_ERROR}: fail closed, the
 * EA's choice: an enrolment that might be a replay is not answered) and {@link WhenFull#EVICT} lets
 * Caffeine drop an entry (fail open, the AA's choice: a replay of a dropped fingerprint would pass,
 * counted in {@code vpki.replay.early.evictions}; size the capacity for peak rate x retention).
 * Time comes from the service's clock, so a test's clock drives expiry; cache maintenance runs on the
 * calling thread (no background tasks). Meters tagged {@code cache=<name>}.
 */
public final class CaffeineReplayCache implements ReplayCache {
    /** What a full cache does. */
    public enum WhenFull { REFUSE, EVICT }

    private record Key(long high, long low) {
    }

    private final String name;
    private final int capacity;
    private final WhenFull whenFull;
    private final Cache<Key, Boolean> cache;
    private final Counter earlyEvictions;

    public CaffeineReplayCache(String name, Duration retention, int capacity, WhenFull whenFull, Clock clock, MeterRegistry registry) {
        if (retention.isNegative() || retention.isZero() || capacity < 1) {
            throw new IllegalArgumentException("replay cache " + name + ": retention must be positive and capacity at least 1");
        }
        this.name = name;
        this.capacity = capacity;
        this.whenFull = whenFull;
        this.earlyEvictions = Counter.builder("vpki.replay.early.evictions").tag("cache", name)
                .description("fingerprints dropped for capacity inside their retention: replays of those would pass")
                .register(registry);
        Caffeine<Object, Object> builder = Caffeine.newBuilder()
                .expireAfterWrite(retention)
                .ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
                .executor(Runnable::run)
                .recordStats();
        if (whenFull == WhenFull.EVICT) {
            builder.maximumSize(capacity).evictionListener((Key key, Boolean value, RemovalCause cause) -> {
                if (cause == RemovalCause.SIZE) {
                    earlyEvictions.increment();
                }
            });
        }
        this.cache = builder.build();
        CaffeineCacheMetrics.monitor(registry, cache, name);
    }

    @Override
    public boolean firstSeen(byte[] fingerprint) {
        ByteBuffer b = ByteBuffer.wrap(fingerprint);
        Key key = new Key(b.getLong(), b.getLong());
        if (whenFull == WhenFull.REFUSE && cache.estimatedSize() >= capacity) {
            cache.cleanUp();
            if (cache.estimatedSize() >= capacity && cache.getIfPresent(key) == null) {
                throw new PkiException(ErrorCode.INTERNAL_ERROR, "replay cache " + name + " full (" + capacity + " live entries)");
            }
        }
        boolean[] created = new boolean[1];
        // the value is a marker only: the answer is whether this call's loader ran (an atomic insert-if-absent)
        Boolean unused = cache.get(key, k -> {
            created[0] = true;
            return Boolean.TRUE;
        });
        return created[0];
    }

    /** Fingerprints held, after purging the expired ones and applying pending evictions. */
    public long size() {
        cache.cleanUp();
        return cache.estimatedSize();
    }

    /** Fingerprints dropped for capacity while inside their retention (EVICT only). */
    public long earlyEvictions() {
        return (long) earlyEvictions.count();
    }
}
