package eu.vpki.common.fleet;

import java.time.Clock;

/**
 * Record versions fixed by the originating replica: {@code millis * 1000} of its clock, raised by
 * one whenever that would not increase, and always above the version the writer read (so a write
 * that follows a read wins over what it read, whatever the clocks say). Ties between origins are
 * broken by the replication library by origin id. Thread-safe.
 */
public final class VersionClock {
    private final Clock clock;
    private long last;

    public VersionClock(Clock clock) {
        this.clock = clock;
    }

    /** A new version for a key that has none yet. */
    public long next() {
        return nextAbove(0);
    }

    /** A new version above {@code stored} (the version this writer read). */
    public synchronized long nextAbove(long stored) {
        long candidate = Math.max(Math.max(clock.millis() * 1_000, last + 1), stored + 1);
        last = candidate;
        return candidate;
    }
}
