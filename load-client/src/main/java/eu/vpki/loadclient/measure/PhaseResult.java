package eu.vpki.loadclient.measure;

import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one phase measured: operations attempted, successes, failures by code, elapsed time and the
 * latency histogram of successful operations in microseconds.
 */
public record PhaseResult(String phase, String model, Double offeredRate, long attempted, long succeeded,
                          Map<String, Long> failuresByCode, Duration elapsed, Histogram latencyMicros) {
    public PhaseResult {
        failuresByCode = Map.copyOf(new TreeMap<>(failuresByCode));
    }

    public long failed() {
        return attempted - succeeded;
    }

    /** Successful operations per second over the phase. */
    public double achievedRate() {
        double s = elapsed.toNanos() / 1e9;
        return s <= 0 ? 0 : succeeded / s;
    }

    public double successRate() {
        return attempted == 0 ? 0 : (double) succeeded / attempted;
    }

    /** Latency percentile in milliseconds (0 when nothing succeeded). */
    public double latencyMillis(double percentile) {
        return latencyMicros.getTotalCount() == 0 ? 0 : latencyMicros.getValueAtPercentile(percentile) / 1000.0;
    }

    public double maxLatencyMillis() {
        return latencyMicros.getTotalCount() == 0 ? 0 : latencyMicros.getMaxValue() / 1000.0;
    }
}
