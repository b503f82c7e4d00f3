package eu.vpki.station.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;

/**
 * One inline SVG line chart of the report: two axes (linear or log), any number of series (a line
 * through their points, or points only), and a legend below the plot area. Axis ranges are chosen
 * from the data so that every point lies inside the plot area; points a log axis cannot show (zero)
 * are left out rather than drawn at the edge.
 */
public final class SvgChart {
    static final int WIDTH = 760;
    private static final int PLOT_HEIGHT = 300;
    private static final int LEFT = 78;
    private static final int RIGHT = 24;
    private static final int TOP = 34;
    private static final int AXIS_SPACE = 46;
    private static final int LEGEND_ROW = 18;

    /** A tick: where it is (in axis units, before any log) and what it says. */
    public record Tick(double value, String label) {
    }

    /** An axis: its range (in axis units), whether it is logarithmic, its ticks. */
    public record Axis(String title, double min, double max, boolean log, List<Tick> ticks) {
        public Axis {
            if (!(max > min) || (log && min <= 0)) {
                throw new IllegalArgumentException("bad axis range " + min + ".." + max);
            }
            ticks = List.copyOf(ticks);
        }

        /** From 0 to a round value above {@code maxValue} (1, 2 or 5 times a power of ten), five or so ticks. */
        public static Axis linearFromZero(String title, double maxValue, DoubleFunction<String> format) {
            double step = niceStep(Math.max(maxValue, 1e-9) * 1.05 / 5);
            double max = Math.max(step, Math.ceil(maxValue * 1.05 / step) * step);
            List<Tick> ticks = new ArrayList<>();
            for (double v = 0; v <= max + step / 2; v += step) {
                ticks.add(new Tick(v, format.apply(v)));
            }
            return new Axis(title, 0, max, false, ticks);
        }

        /** Logarithmic, from the power of ten at or below {@code minValue} to the one above {@code maxValue}; ticks at 1, 2, 5. */
        public static Axis logarithmic(String title, double minValue, double maxValue, DoubleFunction<String> format) {
            double lo = Math.pow(10, Math.floor(Math.log10(minValue)));
            double hi = Math.pow(10, Math.ceil(Math.log10(maxValue * 1.02)));
            if (hi <= lo) {
                hi = lo * 10;
            }
            List<Tick> ticks = new ArrayList<>();
            for (double decade = lo; decade < hi * 1.001; decade *= 10) {
                for (int m : new int[]{1, 2, 5}) {
                    double v = decade * m;
                    if (v <= hi * 1.001) {
                        ticks.add(new Tick(v, format.apply(v)));
                    }
                }
            }
            return new Axis(title, lo, hi, true, ticks);
        }

        /**
         * Percentiles spread as HdrHistogram plots them: position {@code log10(1 / (1 - p))}, so that 90 %,
         * 99 %, 99.9 % ... are equally spaced; from 0 % to the percentile of one operation in {@code count}.
         */
        static Axis percentiles(String title, long count) {
            int nines = (int) Math.max(2, Math.ceil(Math.log10(Math.max(10, count))));
            List<Tick> ticks = new ArrayList<>();
            ticks.add(new Tick(0, "0%"));
            String label = "9";
            for (int n = 1; n <= nines; n++) {
                ticks.add(new Tick(n, n == 1 ? "90%" : n == 2 ? "99%" : "99." + label.repeat(n - 2) + "%"));
            }
            return new Axis(title, 0, nines, false, ticks);
        }

        double fraction(double v) {
            return log ? (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min)) : (v - min) / (max - min);
        }

        boolean shows(double v) {
            return Double.isFinite(v) && (!log || v > 0) && v >= min - 1e-9 * Math.abs(max - min) && v <= max + 1e-9 * Math.abs(max - min);
        }

        private static double niceStep(double raw) {
            double p = Math.pow(10, Math.floor(Math.log10(raw)));
            double f = raw / p;
            return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
        }
    }

    /** How a series marks its points: not at all (a line only), or with a shape. */
    public enum Marker { NONE, CIRCLE, SQUARE, DIAMOND }

    /**
     * One series. Series with the same legend label share one legend entry.
     *
     * @param dash   SVG stroke-dasharray, empty for a solid line
     * @param lines  whether consecutive points are joined
     * @param marker the shape drawn at every point; a series that is not joined always gets one
     */
    public record Series(String legend, String colour, String dash, boolean lines, Marker marker, List<double[]> points) {
        public Series {
            points = List.copyOf(points);
            if (!lines && marker == Marker.NONE) {
                marker = Marker.CIRCLE;
            }
        }

        public Series(String legend, String colour, String dash, boolean lines, List<double[]> points) {
            this(legend, colour, dash, lines, Marker.NONE, points);
        }
    }

    private final String title;
    private final Axis x;
    private final Axis y;
    private final List<Series> series = new ArrayList<>();

    public SvgChart(String title, Axis x, Axis y) {
        this.title = title;
        this.x = x;
        this.y = y;
    }

    public SvgChart add(Series s) {
        series.add(s);
        return this;
    }

    /** The points that will be drawn, in SVG coordinates, for tests: every one inside {@link #plotArea()}. */
    public List<double[]> drawnPoints() {
        List<double[]> out = new ArrayList<>();
        for (Series s : series) {
            for (double[] p : s.points()) {
                if (x.shows(p[0]) && y.shows(p[1])) {
                    out.add(new double[]{px(p[0]), py(p[1])});
                }
            }
        }
        return out;
    }

    /** The plot area: x, y, width, height in SVG coordinates. */
    public static double[] plotArea() {
        return new double[]{LEFT, TOP, WIDTH - LEFT - RIGHT, PLOT_HEIGHT};
    }

    public String svg() {
        Map<String, Series> legend = new LinkedHashMap<>();
        series.forEach(s -> legend.putIfAbsent(s.legend(), s));
        int perRow = 3;
        int rows = (legend.size() + perRow - 1) / perRow;
        int height = TOP + PLOT_HEIGHT + AXIS_SPACE + rows * LEGEND_ROW + 8;
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">",
                WIDTH, height, WIDTH, height));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"14\" font-weight=\"bold\">%s</text>", LEFT, esc(title)));
        for (Tick t : y.ticks()) {
            double py = py(t.value());
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>", LEFT,
                    WIDTH - RIGHT, py, py));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", LEFT - 6, py + 4,
                    esc(t.label())));
        }
        for (Tick t : x.ticks()) {
            double px = px(t.value());
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#f0f0f0\"/>", px, px, TOP,
                    TOP + PLOT_HEIGHT));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", px, TOP + PLOT_HEIGHT + 16,
                    esc(t.label())));
        }
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>",
                LEFT, TOP, WIDTH - LEFT - RIGHT, PLOT_HEIGHT));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                (LEFT + WIDTH - RIGHT) / 2, TOP + PLOT_HEIGHT + 34, esc(x.title())));
        s.append(String.format(Locale.ROOT, "<text transform=\"translate(14,%d) rotate(-90)\" text-anchor=\"middle\">%s</text>",
                TOP + PLOT_HEIGHT / 2, esc(y.title())));
        for (Series ser : series) {
            List<double[]> pts = ser.points().stream().filter(p -> x.shows(p[0]) && y.shows(p[1])).toList();
            if (ser.lines() && pts.size() > 1) {
                StringBuilder d = new StringBuilder();
                for (double[] p : pts) {
                    d.append(d.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f,%.1f", px(p[0]), py(p[1])));
                }
                s.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>", d, ser.colour(),
                        ser.dash().isEmpty() ? "" : " stroke-dasharray=\"" + ser.dash() + "\""));
            }
            Marker marker = ser.marker() == Marker.NONE && pts.size() == 1 ? Marker.CIRCLE : ser.marker();
            for (double[] p : pts) {
                marker(s, marker, px(p[0]), py(p[1]), ser.colour());
            }
        }
        int i = 0;
        int columnWidth = (WIDTH - LEFT - RIGHT) / perRow;
        for (Series ser : legend.values()) {
            int lx = LEFT + (i % perRow) * columnWidth;
            int ly = TOP + PLOT_HEIGHT + AXIS_SPACE + (i / perRow) * LEGEND_ROW;
            if (ser.lines()) {
                s.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>",
                        lx, lx + 26, ly, ly, ser.colour(), ser.dash().isEmpty() ? "" : " stroke-dasharray=\"" + ser.dash() + "\""));
            }
            marker(s, ser.marker(), lx + 13, ly, ser.colour());
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>", lx + 32, ly + 4, esc(ser.legend())));
            i++;
        }
        return s.append("</svg>").toString();
    }

    private static void marker(StringBuilder s, Marker marker, double x, double y, String colour) {
        switch (marker) {
            case CIRCLE -> s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>", x, y, colour));
            case SQUARE -> s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\"/>",
                    x - 4, y - 4, colour));
            case DIAMOND ->
                s.append(String.format(Locale.ROOT, "<path d=\"M%.1f,%.1f l5,5 l-5,5 l-5,-5 z\" fill=\"%s\"/>", x, y - 5, colour));
            case NONE -> {
            }
        }
    }

    private double px(double v) {
        return LEFT + (WIDTH - LEFT - RIGHT) * x.fraction(v);
    }

    private double py(double v) {
        return TOP + PLOT_HEIGHT - PLOT_HEIGHT * y.fraction(v);
    }

    private static String esc(String s) {
        return ReportWriter.escape(s);
    }
}
