package eu.vpki.loadclient.report;

import eu.vpki.loadclient.measure.PhaseResult;

import java.util.List;
import java.util.Locale;

/** An inline SVG line chart: latency percentiles (y, ms, log scale) against achieved throughput (x, ops/s). */
final class LatencyChart {
    private static final int W = 760;
    private static final int H = 420;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 20;
    private static final int BOTTOM = 50;
    private static final double[] SERIES = {50, 99, 99.9};
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#9467bd"};

    private LatencyChart() {
    }

    static String svg(List<PhaseResult> points) {
        double maxX = points.stream().mapToDouble(PhaseResult::achievedRate).max().orElse(1) * 1.1;
        double minY = 0.1;
        double maxY = Math.max(1, points.stream().mapToDouble(p -> p.latencyMillis(99.9)).max().orElse(1)) * 1.5;
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-size=\"12\">", W, H));
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>",
                LEFT, TOP, W - LEFT - RIGHT, H - TOP - BOTTOM));
        for (double tick = 0.1; tick <= maxY; tick *= 10) {
            double y = y(tick, minY, maxY);
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>", LEFT, W - RIGHT, y, y));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s ms</text>", LEFT - 6, y + 4,
                    tick < 1 ? String.format(Locale.ROOT, "%.1f", tick) : String.format(Locale.ROOT, "%.0f", tick)));
        }
        for (int i = 0; i <= 5; i++) {
            double v = maxX * i / 5;
            double x = x(v, maxX);
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0f</text>", x, H - BOTTOM + 18, v));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">achieved throughput (operations/s)</text>",
                (LEFT + W - RIGHT) / 2, H - 10));
        List<PhaseResult> sorted = points.stream().sorted((a, b) -> Double.compare(a.achievedRate(), b.achievedRate())).toList();
        for (int k = 0; k < SERIES.length; k++) {
            StringBuilder path = new StringBuilder();
            for (PhaseResult p : sorted) {
                double lat = Math.max(minY, p.latencyMillis(SERIES[k]));
                double px = x(p.achievedRate(), maxX);
                double py = y(lat, minY, maxY);
                path.append(path.length() == 0 ? "M" : "L").append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>", px, py, COLOURS[k]));
            }
            s.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>", path.toString().trim(), COLOURS[k]));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"%s\">p%s</text>", LEFT + 10 + 70 * k, TOP + 16,
                    COLOURS[k], ReportWriter.trim(SERIES[k]).replace("999", "99.9")));
        }
        return s.append("</svg>").toString();
    }

    private static double x(double v, double maxX) {
        return LEFT + (W - LEFT - RIGHT) * (maxX <= 0 ? 0 : v / maxX);
    }

    private static double y(double v, double minY, double maxY) {
        double f = (Math.log10(v) - Math.log10(minY)) / (Math.log10(maxY) - Math.log10(minY));
        return H - BOTTOM - (H - TOP - BOTTOM) * f;
    }
}
