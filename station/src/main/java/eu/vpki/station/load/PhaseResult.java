package eu.vpki.station.load;

import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one phase measured: operations attempted, successes, failures by code, when it started and
 * how long it took, the latency histogram of successful operations in microseconds, and the same
 * per second ({@link #timeline()}).
 *
 * @param phase     the phase's name, e.g. {@code enrolment} or {@code sweep 75/s}
 * @param operation what each operation of the phase is ({@link #ENROLMENT}, {@link #AUTHORIZATION}):
 *                  phases of different operations are never joined in a chart
 */
public record PhaseResult(String phase, String operation, String model, Double offeredRate, long attempted, long succeeded,
                          Map<String, Long> failuresByCode, Instant startedAt, Duration elapsed, Histogram latencyMicros,
                          List<Interval> timeline) {
    /** An EC request to an EA. */
    public static final String ENROLMENT = "enrolment";
    /** An AT request to an AA. */
    public static final String AUTHORIZATION = "authorization";

    /**
     * What completed in one interval of a phase.
     *
     * @param endSeconds end of the interval, seconds after the phase started
     * @param seconds    length of the interval
     * @param p50Millis  median latency of the interval's successes (0 when none)
     * @param p99Millis  99th percentile of the interval's successes (0 when none)
     */
    public record Interval(double endSeconds, double seconds, long succeeded, long failed, double p50Millis, double p99Millis) {
        /** Successful operations per second in this interval. */
        public double rate() {
            return seconds <= 0 ? 0 : succeeded / seconds;
        }
    }

    public PhaseResult {
        failuresByCode = Map.copyOf(new TreeMap<>(failuresByCode));
        timeline = List.copyOf(timeline);
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
