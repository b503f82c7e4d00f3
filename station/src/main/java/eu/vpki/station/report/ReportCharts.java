package eu.vpki.station.report;

import eu.vpki.station.load.PhaseResult;
import org.HdrHistogram.HistogramIterationValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The charts of the HTML report, one per question a reader asks. Phases of different operations
 * (an EC enrolment, an AT authorization) are never joined by a line; colour says the operation,
 * the line style the percentile.
 * <ul>
 *   <li>{@link #throughputOverTime}: successful operations per second, second by second;</li>
 *   <li>{@link #latencyOverTime}: p50 and p99 of each second;</li>
 *   <li>{@link #percentileDistribution}: HdrHistogram's percentile plot, one line per phase;</li>
 *   <li>{@link #latencyVersusThroughput}: p50, p99, p99.9 against achieved throughput, one point per
 *       phase, joined per operation: for a sweep, the curve of the paper's Figures 3-5.</li>
 * </ul>
 */
public final class ReportCharts {
    private static final String[] PERCENTILE_DASH = {"", "7,4", "2,3"};
    private static final SvgChart.Marker[] PERCENTILE_MARKER = {SvgChart.Marker.CIRCLE, SvgChart.Marker.SQUARE, SvgChart.Marker.DIAMOND};
    private static final double[] PERCENTILES = {50, 99, 99.9};
    /** Intervals shorter than this (the last, partial second of a phase) do not give a rate worth drawing. */
    private static final double SHORTEST_RATE_INTERVAL = 0.5;

    private ReportCharts() {
    }

    /** The colour of an operation's series. */
    public static String colour(String operation) {
        return switch (operation) {
            case PhaseResult.ENROLMENT -> "#1f77b4";
            case PhaseResult.AUTHORIZATION -> "#e6550d";
            default -> "#2ca02c";
        };
    }

    /** What an operation is called in a legend. */
    static String describe(String operation) {
        return switch (operation) {
            case PhaseResult.ENROLMENT -> "enrolment (EC)";
            case PhaseResult.AUTHORIZATION -> "authorization (AT)";
            default -> operation;
        };
    }

    static SvgChart throughputOverTime(List<PhaseResult> phases) {
        Instant first = firstStart(phases);
        double maxRate = 0;
        double maxT = 1;
        for (PhaseResult p : phases) {
            double offset = offsetSeconds(first, p);
            for (PhaseResult.Interval i : p.timeline()) {
                maxT = Math.max(maxT, offset + i.endSeconds());
                if (i.seconds() >= SHORTEST_RATE_INTERVAL) {
                    maxRate = Math.max(maxRate, Math.max(i.rate(), i.failed() / i.seconds()));
                }
            }
        }
        SvgChart chart = new SvgChart("Throughput over time (successful operations per second)",
                SvgChart.Axis.linearFromZero("seconds since the first phase started", maxT, ReportCharts::number),
                SvgChart.Axis.linearFromZero("operations/s", Math.max(1, maxRate), ReportCharts::number));
        for (PhaseResult p : phases) {
            double offset = offsetSeconds(first, p);
            List<double[]> ok = new ArrayList<>();
            List<double[]> failed = new ArrayList<>();
            for (PhaseResult.Interval i : p.timeline()) {
                if (i.seconds() >= SHORTEST_RATE_INTERVAL) {
                    ok.add(new double[]{offset + i.endSeconds(), i.rate()});
                    failed.add(new double[]{offset + i.endSeconds(), i.failed() / i.seconds()});
                }
            }
            chart.add(new SvgChart.Series(describe(p.operation()), colour(p.operation()), "", true, ok));
            if (p.failed() > 0) {
                chart.add(new SvgChart.Series(describe(p.operation()) + " failed", colour(p.operation()), "2,3", true, failed));
            }
        }
        return chart;
    }

    static SvgChart latencyOverTime(List<PhaseResult> phases) {
        Instant first = firstStart(phases);
        double maxT = 1;
        double min = Double.MAX_VALUE;
        double max = 0;
        for (PhaseResult p : phases) {
            double offset = offsetSeconds(first, p);
            for (PhaseResult.Interval i : p.timeline()) {
                maxT = Math.max(maxT, offset + i.endSeconds());
                if (i.succeeded() > 0) {
                    min = Math.min(min, i.p50Millis());
                    max = Math.max(max, i.p99Millis());
                }
            }
        }
        SvgChart chart = new SvgChart("Latency over time (each second's p50 and p99)",
                SvgChart.Axis.linearFromZero("seconds since the first phase started", maxT, ReportCharts::number),
                latencyAxis(min, max));
        for (PhaseResult p : phases) {
            double offset = offsetSeconds(first, p);
            List<double[]> p50 = new ArrayList<>();
            List<double[]> p99 = new ArrayList<>();
            for (PhaseResult.Interval i : p.timeline()) {
                if (i.succeeded() > 0) {
                    p50.add(new double[]{offset + i.endSeconds(), i.p50Millis()});
                    p99.add(new double[]{offset + i.endSeconds(), i.p99Millis()});
                }
            }
            chart.add(new SvgChart.Series(describe(p.operation()) + " p50", colour(p.operation()), PERCENTILE_DASH[0], true, p50));
            chart.add(new SvgChart.Series(describe(p.operation()) + " p99", colour(p.operation()), PERCENTILE_DASH[1], true, p99));
        }
        return chart;
    }

    static SvgChart percentileDistribution(List<PhaseResult> phases) {
        long maxCount = 10;
        double min = Double.MAX_VALUE;
        double max = 0;
        for (PhaseResult p : phases) {
            long n = p.latencyMicros().getTotalCount();
            if (n > 0) {
                maxCount = Math.max(maxCount, n);
                min = Math.min(min, p.latencyMicros().getMinValue() / 1000.0);
                max = Math.max(max, p.maxLatencyMillis());
            }
        }
        SvgChart chart = new SvgChart("Latency by percentile (HdrHistogram percentile distribution)",
                SvgChart.Axis.percentiles("percentile", maxCount), latencyAxis(min, max));
        Map<String, Integer> seen = new LinkedHashMap<>();
        Map<String, Long> ofOperation = new LinkedHashMap<>();
        phases.forEach(p -> ofOperation.merge(p.operation(), 1L, Long::sum));
        for (PhaseResult p : phases) {
            long n = p.latencyMicros().getTotalCount();
            if (n == 0) {
                continue;
            }
            List<double[]> points = new ArrayList<>();
            for (HistogramIterationValue v : p.latencyMicros().percentiles(5)) {
                double q = v.getPercentileLevelIteratedTo() / 100.0;
                if (q < 1) {
                    points.add(new double[]{Math.log10(1 / (1 - q)), v.getValueIteratedTo() / 1000.0});
                }
            }
            // the slowest operation sits at the level of one operation in n
            points.add(new double[]{Math.log10(n), p.maxLatencyMillis()});
            int k = seen.merge(p.operation(), 1, Integer::sum) - 1;
            String colour = ofOperation.get(p.operation()) > 1
                    ? shade(colour(p.operation()), k, ofOperation.get(p.operation()).intValue())
                    : colour(p.operation());
            String legend = ofOperation.get(p.operation()) > 1 ? describe(p.operation()) + ": " + p.phase() : describe(p.operation());
            chart.add(new SvgChart.Series(legend, colour, "", true, points));
        }
        return chart;
    }

    static SvgChart latencyVersusThroughput(List<PhaseResult> phases) {
        double maxRate = phases.stream().mapToDouble(PhaseResult::achievedRate).max().orElse(1);
        double min = Double.MAX_VALUE;
        double max = 0;
        for (PhaseResult p : phases) {
            if (p.succeeded() > 0) {
                min = Math.min(min, p.latencyMillis(50));
                max = Math.max(max, p.latencyMillis(99.9));
            }
        }
        SvgChart chart = new SvgChart("Latency versus achieved throughput (one point per phase)",
                SvgChart.Axis.linearFromZero("achieved throughput (successful operations/s)", Math.max(1, maxRate), ReportCharts::number),
                latencyAxis(min, max));
        Map<String, List<PhaseResult>> byOperation = new LinkedHashMap<>();
        phases.stream().filter(p -> p.succeeded() > 0)
                .forEach(p -> byOperation.computeIfAbsent(p.operation(), o -> new ArrayList<>()).add(p));
        byOperation.forEach((operation, list) -> {
            List<PhaseResult> sorted = list.stream().sorted(Comparator.comparingDouble(PhaseResult::achievedRate)).toList();
            for (int k = 0; k < PERCENTILES.length; k++) {
                double q = PERCENTILES[k];
                List<double[]> points = sorted.stream().map(p -> new double[]{p.achievedRate(), p.latencyMillis(q)}).toList();
                chart.add(new SvgChart.Series(describe(operation) + " p" + ReportWriter.label(q), colour(operation), PERCENTILE_DASH[k],
                        sorted.size() > 1, PERCENTILE_MARKER[k], points));
            }
        });
        return chart;
    }

    private static SvgChart.Axis latencyAxis(double min, double max) {
        if (max <= 0 || min == Double.MAX_VALUE) {
            return SvgChart.Axis.logarithmic("latency (ms, log scale)", 1, 10, ReportCharts::millis);
        }
        return SvgChart.Axis.logarithmic("latency (ms, log scale)", Math.max(0.01, min), Math.max(max, Math.max(0.01, min) * 1.01),
                ReportCharts::millis);
    }

    private static Instant firstStart(List<PhaseResult> phases) {
        return phases.stream().map(PhaseResult::startedAt).min(Comparator.naturalOrder()).orElse(Instant.EPOCH);
    }

    private static double offsetSeconds(Instant first, PhaseResult p) {
        return Duration.between(first, p.startedAt()).toNanos() / 1e9;
    }

    /** Darker to lighter variants of {@code hex} for the k-th of n phases of one operation. */
    static String shade(String hex, int k, int n) {
        int rgb = Integer.parseInt(hex.substring(1), 16);
        double t = n <= 1 ? 0 : (double) k / (n - 1); // 0 darkest .. 1 lightest
        double factor = 0.55 + 0.9 * t;
        int r = channel((rgb >> 16) & 0xff, factor);
        int g = channel((rgb >> 8) & 0xff, factor);
        int b = channel(rgb & 0xff, factor);
        return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, b);
    }

    private static int channel(int c, double factor) {
        return factor <= 1 ? (int) Math.round(c * factor) : (int) Math.round(c + (255 - c) * (factor - 1) * 0.8);
    }

    public static String number(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    public static String millis(double v) {
        return v >= 1 ? String.format(Locale.ROOT, "%,.0f ms", v) : String.format(Locale.ROOT, "%s ms", stripZeros(v));
    }

    private static String stripZeros(double v) {
        return new java.math.BigDecimal(v).round(new java.math.MathContext(2)).stripTrailingZeros().toPlainString();
    }
}
