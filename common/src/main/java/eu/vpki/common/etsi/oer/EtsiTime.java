package eu.vpki.common.etsi.oer;

import java.time.Instant;

/**
 * IEEE 1609.2 time: {@code Time32} counts seconds and {@code Time64} microseconds of TAI since
 * 2004-01-01T00:00:00Z. Like most ETSI implementations we apply the leap seconds inserted since that
 * epoch (5 so far), so a Time32 is the UTC seconds since the epoch plus the leap seconds passed.
 * The table must be extended if the IERS announces another leap second.
 */
public final class EtsiTime {
    /** 2004-01-01T00:00:00Z in Unix seconds. */
    public static final long EPOCH_UNIX_SECONDS = 1_072_915_200L;

    /** Unix times (UTC seconds) at which a leap second had been inserted, since 2004. */
    private static final long[] LEAP_SECONDS = {
            Instant.parse("2006-01-01T00:00:00Z").getEpochSecond(),
            Instant.parse("2009-01-01T00:00:00Z").getEpochSecond(),
            Instant.parse("2012-07-01T00:00:00Z").getEpochSecond(),
            Instant.parse("2015-07-01T00:00:00Z").getEpochSecond(),
            Instant.parse("2017-01-01T00:00:00Z").getEpochSecond(),
    };

    private EtsiTime() {
    }

    private static int leapSecondsAt(long unixSeconds) {
        int n = 0;
        for (long t : LEAP_SECONDS) {
            if (unixSeconds >= t) {
                n++;
            }
        }
        return n;
    }

    /** Time32 value of an instant (seconds, truncated). */
    public static long toTime32(Instant t) {
        long unix = t.getEpochSecond();
        long v = unix - EPOCH_UNIX_SECONDS + leapSecondsAt(unix);
        if (v < 0 || v > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(t + " cannot be expressed as Time32");
        }
        return v;
    }

    /** Instant of a Time32 value. */
    public static Instant fromTime32(long time32) {
        long unix = time32 + EPOCH_UNIX_SECONDS;
        // remove the leap seconds: find n with unix - n having passed exactly n insertions
        for (int n = LEAP_SECONDS.length; n >= 0; n--) {
            if (leapSecondsAt(unix - n) == n) {
                return Instant.ofEpochSecond(unix - n);
            }
        }
        return Instant.ofEpochSecond(unix);
    }

    /** Time64 value of an instant (microseconds). */
    public static long toTime64(Instant t) {
        long unix = t.getEpochSecond();
        long seconds = unix - EPOCH_UNIX_SECONDS + leapSecondsAt(unix);
        return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), t.getNano() / 1_000);
    }

    /** Instant of a Time64 value. */
    public static Instant fromTime64(long time64) {
        Instant whole = fromTime32(Math.floorDiv(time64, 1_000_000L));
        return whole.plusNanos(Math.floorMod(time64, 1_000_000L) * 1_000L);
    }
}
