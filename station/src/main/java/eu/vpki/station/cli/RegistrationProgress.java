package eu.vpki.station.cli;

import java.time.Duration;
import java.util.Locale;

/**
 * The progress line of {@code register}: stations acknowledged of those to register, the rate since the start, the
 * time left at that rate, the batches failed. {@link #due} says when the next line is due (every {@code interval});
 * the caller passes the time ({@link System#nanoTime()}), so that a test passes its own.
 */
final class RegistrationProgress {
    private final long total;
    private final long startNanos;
    private final long intervalNanos;
    private long lastLineNanos;
    private long done;
    private int failedBatches;
    private long failedStations;

    RegistrationProgress(long total, long startNanos, Duration interval) {
        this.total = total;
        this.startNanos = startNanos;
        this.intervalNanos = interval.toNanos();
        this.lastLineNanos = startNanos;
    }

    void acknowledged(int stations) {
        done += stations;
    }

    void failed(int stations) {
        failedBatches++;
        failedStations += stations;
    }

    /** Whether a line is due at {@code nowNanos}; if so, the next one is due an interval later. */
    boolean due(long nowNanos) {
        if (nowNanos - lastLineNanos < intervalNanos) {
            return false;
        }
        lastLineNanos = nowNanos;
        return true;
    }

    /** E.g. {@code registered 12,000 of 100,000 (12.0 %), 1,733 stations/s, about 45 s left; 1 batch (1,000 stations) failed}. */
    String line(long nowNanos) {
        double seconds = Math.max(1e-9, (nowNanos - startNanos) / 1e9);
        double rate = done / seconds;
        long handled = done + failedStations;
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "registered %,d of %,d (%.1f %%), %,.0f stations/s", done, total,
                total == 0 ? 100.0 : 100.0 * done / total, rate));
        if (handled < total && rate > 0) {
            out.append(", about ").append(human(Duration.ofSeconds((long) Math.ceil((total - handled) / rate)))).append(" left");
        }
        if (failedBatches > 0) {
            out.append(String.format(Locale.ROOT, "; %,d batch%s (%,d stations) failed", failedBatches, failedBatches == 1 ? "" : "es",
                    failedStations));
        }
        return out.toString();
    }

    static String human(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return s / 60 + " min " + s % 60 + " s";
        }
        return s / 3600 + " h " + s % 3600 / 60 + " min";
    }
}
