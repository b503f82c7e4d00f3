package eu.vpki.experiments;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What one experiment measured and how, for the HTML page and the JSON beside it: the settings
 * (machine, topology, every option), what this machine cannot show (said on the page, next to the
 * charts), the charts shaped like the paper's figures, the table of the paper's values beside ours,
 * and the sweeps with every step.
 *
 * @param experiment  {@link PaperValues#CENTRALISED}, {@link PaperValues#DISTRIBUTED} or {@link PaperValues#GEOGRAPHIC}
 * @param limits      what the run cannot show or where it departs from the paper, one sentence each
 * @param tables      further measurements (e.g. the consistency anomalies per mode), shown after the charts
 * @param complete    false when the time budget or a failure cut the experiment short (then {@code limits} says what is missing)
 */
public record ExperimentReport(String experiment, String title, Instant startedAt, Instant finishedAt, Map<String, String> settings,
                               List<String> limits, List<Figure> figures, List<Comparison> comparisons, List<Table> tables,
                               List<Sweep> sweeps, boolean complete) {
    public ExperimentReport {
        settings = Map.copyOf(settings);
        limits = List.copyOf(limits);
        figures = List.copyOf(figures);
        comparisons = List.copyOf(comparisons);
        tables = List.copyOf(tables);
        sweeps = List.copyOf(sweeps);
    }

    /** A table of further measurements: a title, a header row, rows of the same width. */
    public record Table(String title, List<String> header, List<List<String>> rows) {
        public Table {
            header = List.copyOf(header);
            rows = rows.stream().map(List::copyOf).toList();
            int width = header.size();
            if (rows.stream().anyMatch(r -> r.size() != width)) {
                throw new IllegalArgumentException("every row of " + title + " needs " + width + " cells");
            }
        }
    }

    /** One row of the table: a value of the paper and what we measured for it. */
    public record Comparison(PaperValues.PaperValue paper, String ours) {
    }

    /**
     * A chart shaped like one of the paper's figures.
     *
     * @param paperFigure the figure it mirrors, e.g. {@code Figs. 3-5}
     * @param note        said under the chart: what the chart cannot show on this machine
     * @param logY        latency axes are logarithmic (saturation spans orders of magnitude)
     */
    public record Figure(String paperFigure, String title, String note, String xTitle, String yTitle, boolean logY, List<Curve> curves) {
        public Figure {
            curves = List.copyOf(curves);
        }
    }

    /** What a curve shows. */
    public enum Kind {
        /** our measured points, joined */
        MEASURED,
        /** a value of the paper on the x axis (e.g. a saturation throughput): a vertical line across the chart */
        PAPER_X,
        /** a value of the paper on the y axis (e.g. a latency): a horizontal line across the chart */
        PAPER_Y
    }

    /**
     * One line of a chart: our measured points, or a value the paper printed drawn across the chart.
     *
     * @param dash   SVG stroke-dasharray, empty for solid
     * @param points the measured points (x, y); for a paper line one point whose x ({@link Kind#PAPER_X}) or y
     *               ({@link Kind#PAPER_Y}) is the paper's value
     */
    public record Curve(String legend, String colour, String dash, Kind kind, List<double[]> points) {
        public Curve {
            points = List.copyOf(points);
            if (kind != Kind.MEASURED && points.size() != 1) {
                throw new IllegalArgumentException("a paper line has one value");
            }
        }

        public static Curve paperX(String legend, double x) {
            return new Curve(legend, "#777777", "3,4", Kind.PAPER_X, List.of(new double[]{x, Double.NaN}));
        }

        public static Curve paperY(String legend, double y) {
            return new Curve(legend, "#777777", "8,4", Kind.PAPER_Y, List.of(new double[]{Double.NaN, y}));
        }
    }
}
