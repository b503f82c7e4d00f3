package eu.vpki.station.report;

import eu.vpki.station.load.PhaseResult;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a {@link RunReport} as terminal text, JSON, CSV and an HTML page: the results per phase,
 * throughput and latency over time, the latency percentile distribution, latency against achieved
 * throughput (for a sweep, the curve of the paper's Figures 3-5) and the run's configuration
 * ({@link ReportCharts}: inline SVG, no script, no network; it opens in any browser).
 */
public final class ReportWriter {
    static final double[] PERCENTILES = {50, 90, 99, 99.9};
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ReportWriter() {
    }

    public static String text(RunReport r) {
        StringBuilder b = new StringBuilder();
        b.append(r.title()).append("  (started ").append(r.startedAt()).append(")\n");
        r.settings().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> b.append("  ").append(e.getKey()).append(": ").append(e.getValue()).append('\n'));
        b.append(String.format(Locale.ROOT, "%n%-22s %10s %10s %9s %9s %8s %8s %8s %8s %8s%n",
                "phase", "offered/s", "achieved/s", "ok", "failed", "p50 ms", "p90 ms", "p99 ms", "p99.9", "max ms"));
        for (PhaseResult p : r.phases()) {
            b.append(String.format(Locale.ROOT, "%-22s %10s %10.1f %9d %9d %8.2f %8.2f %8.2f %8.2f %8.2f%n",
                    p.phase(), p.offeredRate() == null ? "-" : String.format(Locale.ROOT, "%.0f", p.offeredRate()), p.achievedRate(),
                    p.succeeded(), p.failed(), p.latencyMillis(50), p.latencyMillis(90), p.latencyMillis(99), p.latencyMillis(99.9),
                    p.maxLatencyMillis()));
            p.failuresByCode().forEach((code, n) -> b.append(String.format(Locale.ROOT, "%-22s   failed %d x %s%n", "", n, code)));
        }
        b.append(r.allSucceeded() ? "\nall operations succeeded and verified\n" : "\nSOME OPERATIONS FAILED\n");
        return b.toString();
    }

    public static String json(RunReport r) {
        ObjectNode root = JSON.createObjectNode();
        root.put("title", r.title());
        root.put("startedAt", r.startedAt().toString());
        ObjectNode settings = root.putObject("settings");
        r.settings().forEach(settings::put);
        ArrayNode phases = root.putArray("phases");
        for (PhaseResult p : r.phases()) {
            ObjectNode n = phases.addObject();
            n.put("phase", p.phase());
            n.put("operation", p.operation());
            n.put("model", p.model());
            if (p.offeredRate() != null) {
                n.put("offeredRate", p.offeredRate());
            }
            n.put("achievedRate", p.achievedRate());
            n.put("attempted", p.attempted());
            n.put("succeeded", p.succeeded());
            n.put("failed", p.failed());
            n.put("successRate", p.successRate());
            n.put("startedAt", p.startedAt().toString());
            n.put("elapsedSeconds", p.elapsed().toNanos() / 1e9);
            ObjectNode lat = n.putObject("latencyMillis");
            for (double q : PERCENTILES) {
                lat.put("p" + trim(q), p.latencyMillis(q));
            }
            lat.put("max", p.maxLatencyMillis());
            ObjectNode f = n.putObject("failuresByCode");
            p.failuresByCode().forEach(f::put);
            ArrayNode timeline = n.putArray("timeline");
            for (PhaseResult.Interval i : p.timeline()) {
                ObjectNode t = timeline.addObject();
                t.put("endSeconds", i.endSeconds());
                t.put("seconds", i.seconds());
                t.put("succeeded", i.succeeded());
                t.put("failed", i.failed());
                t.put("p50Millis", i.p50Millis());
                t.put("p99Millis", i.p99Millis());
            }
        }
        root.put("allSucceeded", r.allSucceeded());
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    }

    public static String csv(RunReport r) {
        StringBuilder b = new StringBuilder(
                "phase,model,offered_rate,achieved_rate,attempted,succeeded,failed,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,operation\n");
        for (PhaseResult p : r.phases()) {
            b.append(String.format(Locale.ROOT, "%s,%s,%s,%.3f,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%s%n", csvField(p.phase()),
                    csvField(p.model()),
                    p.offeredRate() == null ? "" : String.format(Locale.ROOT, "%.3f", p.offeredRate()), p.achievedRate(), p.attempted(),
                    p.succeeded(), p.failed(), p.latencyMillis(50), p.latencyMillis(90), p.latencyMillis(99), p.latencyMillis(99.9),
                    p.maxLatencyMillis(), csvField(p.operation())));
        }
        return b.toString();
    }

    /** The HTML page: verdict, results, the four charts, the configuration, the text report. */
    public static String html(RunReport r) {
        List<PhaseResult> phases = r.phases();
        StringBuilder b = new StringBuilder("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(escape(r.title())).append("</title>\n<style>")
                .append("body{font-family:sans-serif;margin:1.5em 2em;max-width:1580px;color:#222}")
                .append("table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}")
                .append("th{background:#f2f2f2}td.l,th.l{text-align:left}.ok{color:#2a7a2a}.bad{color:#b00020}")
                .append(".charts{display:flex;flex-wrap:wrap;gap:12px}.charts svg{border:1px solid #ddd;background:#fff}")
                .append("pre{background:#f6f6f6;padding:1em;overflow:auto}</style></head><body>\n")
                .append("<h1>").append(escape(r.title())).append("</h1>\n")
                .append("<p>started ").append(escape(r.startedAt().toString())).append(" &middot; ")
                .append(r.allSucceeded()
                        ? "<b class=\"ok\">all operations succeeded and verified</b>"
                        : "<b class=\"bad\">some operations failed</b>")
                .append("</p>\n<h2>Results</h2>\n<table><tr><th class=\"l\">phase</th><th class=\"l\">operation</th><th class=\"l\">load model</th>")
                .append("<th>offered/s</th><th>achieved/s</th><th>ok</th><th>failed</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th>")
                .append("<th>p99.9 ms</th><th>max ms</th></tr>\n");
        for (PhaseResult p : phases) {
            b.append(String.format(Locale.ROOT, "<tr><td class=\"l\">%s</td><td class=\"l\"><span style=\"color:%s\">&#9632;</span> %s</td>"
                    + "<td class=\"l\">%s</td><td>%s</td><td>%.1f</td><td>%d</td><td>%d</td><td>%.2f</td><td>%.2f</td><td>%.2f</td>"
                    + "<td>%.2f</td><td>%.2f</td></tr>%n",
                    escape(p.phase()), ReportCharts.colour(p.operation()), escape(ReportCharts.describe(p.operation())), escape(p.model()),
                    p.offeredRate() == null ? "-" : String.format(Locale.ROOT, "%.0f", p.offeredRate()), p.achievedRate(), p.succeeded(),
                    p.failed(), p.latencyMillis(50), p.latencyMillis(90), p.latencyMillis(99), p.latencyMillis(99.9),
                    p.maxLatencyMillis()));
        }
        b.append("</table>\n");
        if (phases.stream().anyMatch(p -> !p.failuresByCode().isEmpty())) {
            b.append("<h2>Failures by code</h2>\n<table><tr><th class=\"l\">phase</th><th class=\"l\">code</th><th>count</th></tr>\n");
            phases.forEach(p -> p.failuresByCode().forEach((code, n) -> b.append("<tr><td class=\"l\">").append(escape(p.phase()))
                    .append("</td><td class=\"l\">").append(escape(code)).append("</td><td>").append(n).append("</td></tr>\n")));
            b.append("</table>\n");
        }
        if (!phases.isEmpty()) {
            b.append("<h2>Charts</h2>\n<div class=\"charts\">\n")
                    .append(ReportCharts.throughputOverTime(phases).svg()).append('\n')
                    .append(ReportCharts.latencyOverTime(phases).svg()).append('\n')
                    .append(ReportCharts.percentileDistribution(phases).svg()).append('\n')
                    .append(ReportCharts.latencyVersusThroughput(phases).svg()).append("\n</div>\n");
        }
        b.append("<h2>Run configuration</h2>\n<table>\n");
        r.settings().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> b.append("<tr><th class=\"l\">")
                .append(escape(e.getKey())).append("</th><td class=\"l\">").append(escape(e.getValue())).append("</td></tr>\n"));
        b.append("</table>\n<h2>Text report</h2>\n<pre>").append(escape(text(r))).append("</pre>\n</body></html>\n");
        return b.toString();
    }

    /** Writes {@code base}.txt, .json, .csv and .html into {@code dir}; returns the paths. */
    public static List<Path> writeAll(RunReport r, Path dir, String base) throws IOException {
        Files.createDirectories(dir);
        Path txt = dir.resolve(base + ".txt");
        Path json = dir.resolve(base + ".json");
        Path csv = dir.resolve(base + ".csv");
        Path html = dir.resolve(base + ".html");
        Files.writeString(txt, text(r), StandardCharsets.UTF_8);
        Files.writeString(json, json(r), StandardCharsets.UTF_8);
        Files.writeString(csv, csv(r), StandardCharsets.UTF_8);
        Files.writeString(html, html(r), StandardCharsets.UTF_8);
        return List.of(txt, json, csv, html);
    }

    /** A percentile as people write it: 50, 99, 99.9. */
    public static String label(double q) {
        return q == Math.rint(q) ? String.valueOf((long) q) : String.valueOf(q);
    }

    static String trim(double q) {
        return q == Math.rint(q) ? String.valueOf((long) q) : String.valueOf(q).replace(".", "");
    }

    private static String csvField(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    public static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
