package eu.vpki.loadclient.report;

import eu.vpki.loadclient.measure.PhaseResult;
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
 * Writes a {@link RunReport} as terminal text, JSON, CSV and an HTML page with a
 * latency-versus-throughput chart (inline SVG: p50, p99 and p99.9 against achieved rate, one point
 * per phase, the shape of the paper's Figures 3-5 for a sweep).
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
            n.put("model", p.model());
            if (p.offeredRate() != null) {
                n.put("offeredRate", p.offeredRate());
            }
            n.put("achievedRate", p.achievedRate());
            n.put("attempted", p.attempted());
            n.put("succeeded", p.succeeded());
            n.put("failed", p.failed());
            n.put("successRate", p.successRate());
            n.put("elapsedSeconds", p.elapsed().toNanos() / 1e9);
            ObjectNode lat = n.putObject("latencyMillis");
            for (double q : PERCENTILES) {
                lat.put("p" + trim(q), p.latencyMillis(q));
            }
            lat.put("max", p.maxLatencyMillis());
            ObjectNode f = n.putObject("failuresByCode");
            p.failuresByCode().forEach(f::put);
        }
        root.put("allSucceeded", r.allSucceeded());
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    }

    public static String csv(RunReport r) {
        StringBuilder b = new StringBuilder("phase,model,offered_rate,achieved_rate,attempted,succeeded,failed,p50_ms,p90_ms,p99_ms,p999_ms,max_ms\n");
        for (PhaseResult p : r.phases()) {
            b.append(String.format(Locale.ROOT, "%s,%s,%s,%.3f,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f%n", csvField(p.phase()), csvField(p.model()),
                    p.offeredRate() == null ? "" : String.format(Locale.ROOT, "%.3f", p.offeredRate()), p.achievedRate(), p.attempted(),
                    p.succeeded(), p.failed(), p.latencyMillis(50), p.latencyMillis(90), p.latencyMillis(99), p.latencyMillis(99.9),
                    p.maxLatencyMillis()));
        }
        return b.toString();
    }

    /** An HTML page: the text report and, for the phases in {@code chartPhases}, the latency/throughput chart. */
    public static String html(RunReport r, List<PhaseResult> chartPhases) {
        return "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" + escape(r.title()) + "</title>"
                + "<style>body{font-family:sans-serif;margin:2em}pre{background:#f6f6f6;padding:1em}</style></head><body>\n"
                + "<h1>" + escape(r.title()) + "</h1>\n"
                + (chartPhases.size() >= 1 ? "<h2>Latency versus achieved throughput</h2>\n" + LatencyChart.svg(chartPhases) + "\n" : "")
                + "<h2>Figures</h2>\n<pre>" + escape(text(r)) + "</pre>\n</body></html>\n";
    }

    /** Writes {@code base}.txt, .json, .csv and .html into {@code dir}; returns the paths. */
    public static List<Path> writeAll(RunReport r, Path dir, String base, List<PhaseResult> chartPhases) throws IOException {
        Files.createDirectories(dir);
        Path txt = dir.resolve(base + ".txt");
        Path json = dir.resolve(base + ".json");
        Path csv = dir.resolve(base + ".csv");
        Path html = dir.resolve(base + ".html");
        Files.writeString(txt, text(r), StandardCharsets.UTF_8);
        Files.writeString(json, json(r), StandardCharsets.UTF_8);
        Files.writeString(csv, csv(r), StandardCharsets.UTF_8);
        Files.writeString(html, html(r, chartPhases), StandardCharsets.UTF_8);
        return List.of(txt, json, csv, html);
    }

    static String trim(double q) {
        return q == Math.rint(q) ? String.valueOf((long) q) : String.valueOf(q).replace(".", "");
    }

    private static String csvField(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
