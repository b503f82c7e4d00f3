package eu.vpki.experiments;

import eu.vpki.station.load.PhaseResult;
import eu.vpki.station.load.Workload;
import eu.vpki.station.report.ReportCharts;
import eu.vpki.station.report.ReportWriter;
import eu.vpki.station.report.RunReport;
import eu.vpki.station.report.SvgChart;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes an {@link ExperimentReport}: {@code NAME.html} (one page, no script, nothing loaded from the
 * network: what the machine cannot show, the paper's values beside ours, the charts shaped like the
 * paper's figures, every sweep step, the settings), {@code NAME.json} (the same data) and, per sweep,
 * the load client's ordinary run report ({@code NAME-sweepN.*}, with its four charts).
 */
public final class ExperimentReportWriter {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final double[] PERCENTILES = {50, 90, 99, 99.9};

    private ExperimentReportWriter() {
    }

    /** Writes every file into {@code dir}; returns the HTML page's and the JSON's paths first. */
    public static List<Path> writeAll(ExperimentReport r, Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        List<Path> files = new ArrayList<>();
        files.add(Files.writeString(dir.resolve(name + ".html"), html(r, name), StandardCharsets.UTF_8));
        files.add(Files.writeString(dir.resolve(name + ".json"), json(r), StandardCharsets.UTF_8));
        for (int i = 0; i < r.sweeps().size(); i++) {
            Sweep s = r.sweeps().get(i);
            Map<String, String> settings = new LinkedHashMap<>(r.settings());
            settings.putAll(s.setting());
            files.addAll(ReportWriter.writeAll(new RunReport(r.title() + ": " + s.label(), s.steps().isEmpty()
                    ? r.startedAt()
                    : s.steps().get(0).startedAt(), settings, s.steps()), dir, sweepName(name, i)));
        }
        return files;
    }

    static String sweepName(String name, int i) {
        return name + "-sweep" + (i + 1);
    }

    /** The text printed at the end of a run: the paper's values beside ours. */
    public static String text(ExperimentReport r) {
        StringBuilder b = new StringBuilder(r.title()).append('\n');
        for (ExperimentReport.Comparison c : r.comparisons()) {
            b.append(String.format(Locale.ROOT, "  %-10s %-32s %-36s paper: %-26s ours: %s%n", c.paper().figures(), c.paper().quantity(),
                    c.paper().setting(), c.paper().value(), c.ours()));
        }
        r.limits().forEach(l -> b.append("  note: ").append(l).append('\n'));
        if (!r.complete()) {
            b.append("  INCOMPLETE: cut short (see the notes)\n");
        }
        return b.toString();
    }

    public static String json(ExperimentReport r) {
        ObjectNode n = JSON.createObjectNode();
        n.put("experiment", r.experiment());
        n.put("title", r.title());
        n.put("paper", PaperValues.CITATION);
        n.put("startedAt", r.startedAt().toString());
        n.put("finishedAt", r.finishedAt().toString());
        n.put("complete", r.complete());
        ObjectNode settings = n.putObject("settings");
        r.settings().forEach(settings::put);
        ArrayNode limits = n.putArray("limits");
        r.limits().forEach(limits::add);
        ArrayNode comparisons = n.putArray("comparisons");
        for (ExperimentReport.Comparison c : r.comparisons()) {
            ObjectNode o = comparisons.addObject();
            o.put("figures", c.paper().figures());
            o.put("quantity", c.paper().quantity());
            o.put("paperSetting", c.paper().setting());
            o.put("paper", c.paper().value());
            o.put("ours", c.ours());
        }
        ArrayNode tables = n.putArray("tables");
        for (ExperimentReport.Table t : r.tables()) {
            ObjectNode o = tables.addObject();
            o.put("title", t.title());
            ArrayNode header = o.putArray("header");
            t.header().forEach(header::add);
            ArrayNode rows = o.putArray("rows");
            t.rows().forEach(row -> {
                ArrayNode cells = rows.addArray();
                row.forEach(cells::add);
            });
        }
        ArrayNode sweeps = n.putArray("sweeps");
        for (Sweep s : r.sweeps()) {
            ObjectNode o = sweeps.addObject();
            o.put("label", s.label());
            o.put("operation", s.operation());
            ObjectNode setting = o.putObject("setting");
            s.setting().forEach(setting::put);
            o.put("saturated", s.saturated());
            o.put("peakRate", s.peakRate());
            ArrayNode steps = o.putArray("steps");
            for (PhaseResult p : s.steps()) {
                ObjectNode st = steps.addObject();
                st.put("phase", p.phase());
                if (p.offeredRate() != null) {
                    st.put("offeredRate", p.offeredRate());
                }
                st.put("achievedRate", p.achievedRate());
                st.put("attempted", p.attempted());
                st.put("succeeded", p.succeeded());
                st.put("failed", p.failed());
                ObjectNode failures = st.putObject("failuresByCode");
                p.failuresByCode().forEach(failures::put);
                ObjectNode latency = st.putObject("latencyMillis");
                for (double q : PERCENTILES) {
                    latency.put("p" + ReportWriter.label(q), p.latencyMillis(q));
                }
                latency.put("max", p.maxLatencyMillis());
                st.put("saturated", Workload.saturated(p));
            }
        }
        ArrayNode figures = n.putArray("figures");
        for (ExperimentReport.Figure f : r.figures()) {
            ObjectNode o = figures.addObject();
            o.put("paperFigure", f.paperFigure());
            o.put("title", f.title());
            o.put("note", f.note());
            o.put("x", f.xTitle());
            o.put("y", f.yTitle());
            ArrayNode curves = o.putArray("curves");
            for (ExperimentReport.Curve c : f.curves()) {
                ObjectNode co = curves.addObject();
                co.put("legend", c.legend());
                co.put("kind", c.kind().name());
                ArrayNode pts = co.putArray("points");
                c.points().forEach(p -> {
                    ArrayNode pt = pts.addArray();
                    pt.add(Double.isNaN(p[0]) ? null : p[0]);
                    pt.add(Double.isNaN(p[1]) ? null : p[1]);
                });
            }
        }
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(n);
    }

    public static String html(ExperimentReport r, String name) {
        StringBuilder b = new StringBuilder("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(esc(r.title())).append("</title>\n<style>")
                .append("body{font-family:sans-serif;margin:1.5em 2em;max-width:1580px;color:#222}")
                .append("table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}")
                .append("th{background:#f2f2f2}td.l,th.l{text-align:left}.bad{color:#b00020}.note{background:#fff6d6;padding:.6em 1em}")
                .append(".charts{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0;border:1px solid #ddd;background:#fff}")
                .append("figcaption{max-width:740px;padding:.4em .8em;font-size:13px;background:#fff6d6}</style></head><body>\n")
                .append("<h1>").append(esc(r.title())).append("</h1>\n<p>")
                .append(esc(r.startedAt().toString())).append(" to ").append(esc(r.finishedAt().toString()))
                .append(String.format(Locale.ROOT, " (%d s)", Duration.between(r.startedAt(), r.finishedAt()).toSeconds()))
                .append(" &middot; reproducing ").append(esc(PaperValues.CITATION)).append("</p>\n");
        if (!r.complete()) {
            b.append("<p class=\"bad\"><b>Incomplete: the experiment was cut short (see below).</b></p>\n");
        }
        b.append("<h2>What this run cannot show</h2>\n<ul class=\"note\">\n");
        r.limits().forEach(l -> b.append("<li>").append(esc(l)).append("</li>\n"));
        b.append("</ul>\n<h2>The paper's values beside ours</h2>\n<table><tr><th class=\"l\">paper</th><th class=\"l\">quantity</th>")
                .append("<th class=\"l\">paper's setting</th><th class=\"l\">paper</th><th class=\"l\">ours (this run)</th></tr>\n");
        for (ExperimentReport.Comparison c : r.comparisons()) {
            b.append("<tr><td class=\"l\">").append(esc(c.paper().figures())).append("</td><td class=\"l\">")
                    .append(esc(c.paper().quantity()))
                    .append("</td><td class=\"l\">").append(esc(c.paper().setting())).append("</td><td class=\"l\">")
                    .append(esc(c.paper().value()))
                    .append("</td><td class=\"l\">").append(esc(c.ours())).append("</td></tr>\n");
        }
        b.append("</table>\n<h2>Charts</h2>\n<div class=\"charts\">\n");
        for (ExperimentReport.Figure f : r.figures()) {
            b.append("<figure>").append(chart(f).svg()).append("<figcaption>Shaped like the paper's ").append(esc(f.paperFigure()))
                    .append(". ").append(esc(f.note())).append("</figcaption></figure>\n");
        }
        b.append("</div>\n");
        for (ExperimentReport.Table t : r.tables()) {
            b.append("<h2>").append(esc(t.title())).append("</h2>\n<table><tr>");
            t.header().forEach(h -> b.append("<th class=\"l\">").append(esc(h)).append("</th>"));
            b.append("</tr>\n");
            t.rows().forEach(row -> {
                b.append("<tr>");
                row.forEach(cell -> b.append("<td class=\"l\">").append(esc(cell)).append("</td>"));
                b.append("</tr>\n");
            });
            b.append("</table>\n");
        }
        b.append("<h2>Sweeps and measurements</h2>\n");
        for (int i = 0; i < r.sweeps().size(); i++) {
            Sweep s = r.sweeps().get(i);
            b.append("<h3>").append(esc(s.label())).append("</h3>\n<p>")
                    .append(s.steps().stream().allMatch(p -> p.offeredRate() == null)
                            ? "closed loop: the capacity at that concurrency"
                            : s.saturated() ? "saturated" : "<b>not saturated</b> (ran out of steps or time)")
                    .append(String.format(Locale.ROOT, "; peak %.1f/s; ", s.peakRate())).append("detailed report: <a href=\"")
                    .append(esc(sweepName(name, i))).append(".html\">").append(esc(sweepName(name, i))).append(".html</a></p>\n")
                    .append("<table><tr><th class=\"l\">step</th><th>offered/s</th><th>achieved/s</th><th>ok</th><th>failed</th>")
                    .append("<th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>p99.9 ms</th><th>max ms</th><th class=\"l\">failures</th></tr>\n");
            for (PhaseResult p : s.steps()) {
                b.append(String.format(Locale.ROOT, "<tr><td class=\"l\">%s</td><td>%s</td><td>%.1f</td><td>%d</td><td>%d</td><td>%.2f</td>"
                        + "<td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td class=\"l\">%s</td></tr>%n", esc(p.phase()),
                        p.offeredRate() == null ? "-" : String.format(Locale.ROOT, "%.0f", p.offeredRate()), p.achievedRate(),
                        p.succeeded(),
                        p.failed(), p.latencyMillis(50), p.latencyMillis(90), p.latencyMillis(99), p.latencyMillis(99.9),
                        p.maxLatencyMillis(),
                        esc(p.failuresByCode().toString())));
            }
            b.append("</table>\n");
        }
        b.append("<h2>Machine, topology and settings</h2>\n<table>\n");
        r.settings().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> b.append("<tr><th class=\"l\">")
                .append(esc(e.getKey())).append("</th><td class=\"l\">").append(esc(e.getValue())).append("</td></tr>\n"));
        return b.append("</table>\n</body></html>\n").toString();
    }

    /** The figure as an SVG chart; the paper's lines span the axes, which are sized so that every value shows. */
    static SvgChart chart(ExperimentReport.Figure f) {
        double maxX = 0;
        double minY = Double.MAX_VALUE;
        double maxY = 0;
        for (ExperimentReport.Curve c : f.curves()) {
            for (double[] p : c.points()) {
                if (!Double.isNaN(p[0])) {
                    maxX = Math.max(maxX, p[0]);
                }
                if (!Double.isNaN(p[1]) && (!f.logY() || p[1] > 0)) {
                    minY = Math.min(minY, p[1]);
                    maxY = Math.max(maxY, p[1]);
                }
            }
        }
        SvgChart.Axis x = SvgChart.Axis.linearFromZero(f.xTitle(), Math.max(maxX, 1), ReportCharts::number);
        SvgChart.Axis y;
        if (f.logY()) {
            double lo = minY == Double.MAX_VALUE ? 1 : Math.max(0.01, minY);
            y = SvgChart.Axis.logarithmic(f.yTitle(), lo, Math.max(maxY, lo * 1.01), ReportCharts::millis);
        } else {
            y = SvgChart.Axis.linearFromZero(f.yTitle(), Math.max(maxY, 1), ReportCharts::number);
        }
        SvgChart chart = new SvgChart(f.title(), x, y);
        for (ExperimentReport.Curve c : f.curves()) {
            List<double[]> points = switch (c.kind()) {
                case MEASURED -> c.points();
                case PAPER_X -> List.of(new double[]{c.points().get(0)[0], y.min()}, new double[]{c.points().get(0)[0], y.max()});
                case PAPER_Y -> List.of(new double[]{x.min(), c.points().get(0)[1]}, new double[]{x.max(), c.points().get(0)[1]});
            };
            chart.add(new SvgChart.Series(c.legend(), c.colour(), c.dash(), true,
                    c.kind() == ExperimentReport.Kind.MEASURED ? SvgChart.Marker.CIRCLE : SvgChart.Marker.NONE, points));
        }
        return chart;
    }

    private static String esc(String s) {
        return ReportWriter.escape(s);
    }
}
