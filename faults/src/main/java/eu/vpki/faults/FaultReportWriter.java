package eu.vpki.faults;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * Writes a {@link FaultReport} as terminal text, JSON (everything, findings capped per check and
 * run) and a self-contained HTML page: the table of modes and fault kinds, the promises next to the
 * measurements, the runs with their seeds, and the first findings of each check.
 */
public final class FaultReportWriter {
    /** Findings listed per check and run in the text and HTML (the JSON holds up to {@link #JSON_FINDINGS}). */
    static final int LISTED_FINDINGS = 12;
    static final int JSON_FINDINGS = 1_000;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private FaultReportWriter() {
    }

    /** Writes NAME.txt, NAME.json and NAME.html into {@code dir}; returns the files. */
    public static List<Path> writeAll(FaultReport report, Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        List<Path> files = List.of(dir.resolve(name + ".txt"), dir.resolve(name + ".json"), dir.resolve(name + ".html"));
        Files.writeString(files.get(0), text(report), StandardCharsets.UTF_8);
        Files.writeString(files.get(1), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json(report)), StandardCharsets.UTF_8);
        Files.writeString(files.get(2), html(report), StandardCharsets.UTF_8);
        return files;
    }

    // ---- text ----

    private static final String ROW_FORMAT = "%-14s %-22s %4s %4s %5s %6s %7s %6s %6s %9s %8s %5s %6s %7s %7s %8s %6s %5s %5s %5s %6s %4s %7s %8s%n";

    public static String text(FaultReport report) {
        StringBuilder b = new StringBuilder();
        b.append("vpki fault-injection report: ").append(report.runs().size()).append(report.runs().size() == 1 ? " run" : " runs")
                .append('\n');
        int n = 1;
        for (FaultReport.RunResult run : report.runs()) {
            b.append(String.format(Locale.ROOT, "  run %d: %s, seed %d, %s, started %s, %.0f s, %d operations, %d faults injected"
                    + " (%d skipped, %d not recovered), quiet %d s, failure detection %d s%n      history %s%n",
                    n++, run.mode(), run.info().seed(), run.info().network(), run.info().started(), run.info().durationMs() / 1000.0,
                    run.ops(), run.count(FaultReport.FaultCount::injected), run.count(FaultReport.FaultCount::skipped),
                    run.count(FaultReport.FaultCount::unrecovered), run.info().quietMs() / 1000, run.info().failureDetectionMs() / 1000,
                    run.history()));
            if (!run.info().networkFaults()) {
                b.append("      network faults skipped: ").append(run.info().network()).append('\n');
            }
        }
        b.append('\n').append(String.format(Locale.ROOT, ROW_FORMAT, "mode", "fault", "inj", "skip", "unrec", "mean s", "ops", "avail%",
                "lost", "(allowed)", "div.keys", "RYW", "stale", "(viol)", "lostrev", "max ms", "minor", "seq", "1ec", "live", "unread",
                "res", "heap MB", "log max"));
        for (FaultReport.Row r : report.rows()) {
            b.append(String.format(Locale.ROOT, ROW_FORMAT, r.mode(), r.fault(), count(r.injected(), r), count(r.skipped(), r),
                    count(r.unrecovered(), r), r.fault().equals(AvailabilityChecker.NONE)
                            ? "-"
                            : String.format(Locale.ROOT, "%.1f",
                                    r.meanFaultMs() / 1000.0),
                    r.ops(), r.availability() < 0 ? "-" : String.format(Locale.ROOT, "%.1f", r.availability()),
                    r.lost(), "(" + r.lostAllowed() + ")", r.divergentKeys(), r.rywViolations(), r.stale(), "(" + r.staleViolations() + ")",
                    r.staleOnLostRevocation(), r.maxStalenessMs(), r.minorityAcks(), r.sequenceViolations(), r.activeEcViolations(),
                    r.livenessViolations(), r.unreadableReplicas(), r.resourceViolations(), r.fault().equals("all") ? r.peakHeapMb() : "-",
                    r.fault().equals("all") ? r.peakLogEntries() : "-"));
        }
        b.append("\npromised (docs) vs measured\n");
        String mode = null;
        for (FaultReport.Promise p : report.promises()) {
            if (!p.mode().equals(mode)) {
                mode = p.mode();
                b.append("  ").append(mode).append('\n');
            }
            b.append(String.format(Locale.ROOT, "    %-20s %-12s promised: %s%n%38s measured: %s%n", p.check().label(), p.verdict(),
                    p.promised(), "", p.measured()));
        }
        for (FaultReport.RunResult run : report.runs()) {
            for (CheckResult r : run.results().values()) {
                if (r.findings().isEmpty()) {
                    continue;
                }
                b.append(String.format(Locale.ROOT, "%n%s, seed %d: %s (%d findings, %d violations)%n", run.mode(), run.info().seed(),
                        r.check().title(), r.findings().size(), r.violations()));
                for (Finding f : r.findings().subList(0, Math.min(LISTED_FINDINGS, r.findings().size()))) {
                    b.append("    ").append(f.violation() ? "! " : "  ").append(attribution(run, f)).append(f.subject()).append(": ")
                            .append(f.detail()).append('\n');
                }
                if (r.findings().size() > LISTED_FINDINGS) {
                    b.append("    ... ").append(r.findings().size() - LISTED_FINDINGS).append(" more in the JSON report\n");
                }
            }
        }
        b.append(report.violated() ? "\nA PROMISED GUARANTEE WAS VIOLATED\n" : "\nevery promised guarantee held\n");
        return b.toString();
    }

    private static String count(int value, FaultReport.Row row) {
        return row.fault().equals(AvailabilityChecker.NONE) ? "-" : Integer.toString(value);
    }

    private static String attribution(FaultReport.RunResult run, Finding f) {
        if (f.faultIndex() < 0) {
            return "[no fault] ";
        }
        return run.info().schedule().stream().filter(p -> p.index() == f.faultIndex()).findFirst()
                .map(p -> "[#" + p.index() + " " + p.kind().label() + "] ").orElse("[#" + f.faultIndex() + "] ");
    }

    // ---- JSON ----

    public static ObjectNode json(FaultReport report) {
        ObjectNode root = JSON.createObjectNode();
        root.put("violated", report.violated());
        ArrayNode runs = root.putArray("runs");
        for (FaultReport.RunResult run : report.runs()) {
            ObjectNode r = runs.addObject();
            r.put("mode", run.mode());
            r.put("order", run.info().order());
            r.put("propagation", run.info().propagation());
            r.put("seed", run.info().seed());
            r.put("network", run.info().network());
            r.put("networkFaults", run.info().networkFaults());
            r.put("started", run.info().started().toString());
            r.put("durationMs", run.info().durationMs());
            r.put("quietMs", run.info().quietMs());
            r.put("failureDetectionMs", run.info().failureDetectionMs());
            r.put("history", run.history());
            r.put("operations", run.ops());
            ObjectNode settings = r.putObject("settings");
            new TreeMap<>(run.info().settings()).forEach(settings::put);
            ObjectNode faults = r.putObject("faults");
            run.faults().forEach((kind, c) -> faults.putObject(kind.label()).put("injected", c.injected()).put("skipped", c.skipped())
                    .put("unrecovered", c.unrecovered()).put("totalMs", c.totalMs()));
            ObjectNode checks = r.putObject("checks");
            for (CheckResult c : run.results().values()) {
                ObjectNode cn = checks.putObject(c.check().label());
                cn.put("violations", c.violations());
                cn.put("summary", FaultReport.summary(c));
                cn.put("note", c.note());
                ObjectNode figures = cn.putObject("figures");
                c.figures().forEach(figures::put);
                cn.put("findings", c.findings().size());
                ArrayNode list = cn.putArray("listed");
                for (Finding f : c.findings().subList(0, Math.min(JSON_FINDINGS, c.findings().size()))) {
                    ObjectNode fn = list.addObject();
                    fn.put("fault", f.faultIndex());
                    fn.put("subject", f.subject());
                    fn.put("detail", f.detail());
                    fn.put("violation", f.violation());
                    if (f.valueMs() >= 0) {
                        fn.put("ms", f.valueMs());
                    }
                }
            }
        }
        ArrayNode rows = root.putArray("rows");
        for (FaultReport.Row row : report.rows()) {
            ObjectNode n = rows.addObject();
            n.put("mode", row.mode());
            n.put("fault", row.fault());
            n.put("injected", row.injected());
            n.put("skipped", row.skipped());
            n.put("unrecovered", row.unrecovered());
            n.put("meanFaultMs", row.meanFaultMs());
            n.put("operations", row.ops());
            n.put("availabilityPercent", row.availability());
            n.put("lost", row.lost());
            n.put("lostAllowed", row.lostAllowed());
            n.put("divergentKeys", row.divergentKeys());
            n.put("readYourWritesViolations", row.rywViolations());
            n.put("staleValidations", row.stale());
            n.put("staleViolations", row.staleViolations());
            n.put("staleOnLostRevocation", row.staleOnLostRevocation());
            n.put("maxStalenessMs", row.maxStalenessMs());
            n.put("minorityAcknowledged", row.minorityAcks());
            n.put("sequenceViolations", row.sequenceViolations());
            n.put("activeEcViolations", row.activeEcViolations());
            n.put("livenessViolations", row.livenessViolations());
            n.put("unreadableReplicas", row.unreadableReplicas());
            n.put("resourceViolations", row.resourceViolations());
            n.put("peakHeapMb", row.peakHeapMb());
            n.put("peakLogEntries", row.peakLogEntries());
        }
        ArrayNode promises = root.putArray("promises");
        for (FaultReport.Promise p : report.promises()) {
            promises.addObject().put("mode", p.mode()).put("check", p.check().label()).put("promised", p.promised())
                    .put("measured", p.measured()).put("verdict", p.verdict().name());
        }
        return root;
    }

    // ---- HTML ----

    public static String html(FaultReport report) {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>vpki fault-injection report</title>\n<style>\n")
                .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}")
                .append("td,th{border:1px solid #bbb;padding:.3em .6em;text-align:right}th{background:#eee}td.l,th.l{text-align:left}")
                .append(".bad{background:#f8c8c8;font-weight:bold}.ok{background:#d8f0d8}.na{color:#888}code{font-size:90%}")
                .append("</style></head><body>\n<h1>vpki fault-injection report</h1>\n");
        b.append("<p class=\"").append(report.violated() ? "bad" : "ok").append("\">")
                .append(report.violated() ? "A promised guarantee was violated." : "Every promised guarantee held.").append("</p>\n");
        b.append("<h2>Runs</h2>\n<table><tr><th class=\"l\">mode</th><th>seed</th><th class=\"l\">network</th><th>operations</th>")
                .append("<th>faults</th><th>skipped</th><th>not recovered</th><th>duration s</th><th class=\"l\">history</th></tr>\n");
        for (FaultReport.RunResult run : report.runs()) {
            b.append("<tr><td class=\"l\">").append(esc(run.mode())).append("</td><td>").append(run.info().seed())
                    .append("</td><td class=\"l\">")
                    .append(esc(run.info().network())).append("</td><td>").append(run.ops()).append("</td><td>")
                    .append(run.count(FaultReport.FaultCount::injected)).append("</td><td>")
                    .append(run.count(FaultReport.FaultCount::skipped))
                    .append("</td><td>").append(run.count(FaultReport.FaultCount::unrecovered)).append("</td><td>")
                    .append(run.info().durationMs() / 1000).append("</td><td class=\"l\"><code>").append(esc(run.history()))
                    .append("</code></td></tr>\n");
        }
        b.append("</table>\n<h2>Per mode and fault kind</h2>\n<table><tr><th class=\"l\">mode</th><th class=\"l\">fault</th>")
                .append("<th>injected</th><th>skipped</th><th>not recovered</th><th>mean duration s</th><th>operations</th><th>available %</th>")
                .append("<th>lost (allowed)</th>")
                .append("<th>divergent keys</th><th>RYW violations</th><th>stale (violations)</th><th>of them on a lost revocation</th><th>max staleness ms (others)</th>")
                .append("<th>minority acks</th><th>sequence</th><th>one ACTIVE EC</th><th>liveness</th><th>unreadable replicas</th><th>resources</th><th>peak heap MB</th><th>peak command log</th></tr>\n");
        for (FaultReport.Row r : report.rows()) {
            boolean none = r.fault().equals(AvailabilityChecker.NONE);
            b.append("<tr><td class=\"l\">").append(esc(r.mode())).append("</td><td class=\"l\">").append(esc(r.fault())).append("</td>")
                    .append(cell(none ? "-" : Integer.toString(r.injected()), false))
                    .append(cell(none ? "-" : Integer.toString(r.skipped()), false))
                    .append(cell(none ? "-" : Integer.toString(r.unrecovered()), r.unrecovered() > 0))
                    .append(cell(none ? "-" : String.format(Locale.ROOT, "%.1f", r.meanFaultMs() / 1000.0), false))
                    .append(cell(Long.toString(r.ops()), false))
                    .append(cell(r.availability() < 0 ? "-" : String.format(Locale.ROOT, "%.1f", r.availability()), false))
                    .append(cell(r.lost() + " (" + r.lostAllowed() + ")", r.lost() > r.lostAllowed()))
                    .append(cell(Long.toString(r.divergentKeys()), r.divergentKeys() > 0))
                    .append(cell(Long.toString(r.rywViolations()), r.rywViolations() > 0))
                    .append(cell(r.stale() + " (" + r.staleViolations() + ")", r.staleViolations() > 0))
                    .append(cell(Long.toString(r.staleOnLostRevocation()), r.staleOnLostRevocation() > 0))
                    .append(cell(Long.toString(r.maxStalenessMs()), false))
                    .append(cell(Long.toString(r.minorityAcks()), r.minorityAcks() > 0))
                    .append(cell(Long.toString(r.sequenceViolations()), r.sequenceViolations() > 0))
                    .append(cell(Long.toString(r.activeEcViolations()), r.activeEcViolations() > 0))
                    .append(cell(Long.toString(r.livenessViolations()), r.livenessViolations() > 0))
                    .append(cell(Long.toString(r.unreadableReplicas()), r.unreadableReplicas() > 0))
                    .append(cell(Long.toString(r.resourceViolations()), r.resourceViolations() > 0))
                    .append(cell(r.fault().equals("all") ? Long.toString(r.peakHeapMb()) : "-", false))
                    .append(cell(r.fault().equals("all") ? Long.toString(r.peakLogEntries()) : "-", false)).append("</tr>\n");
        }
        b.append("</table>\n<h2>Promised (docs) vs measured</h2>\n<table><tr><th class=\"l\">mode</th><th class=\"l\">check</th>")
                .append("<th class=\"l\">verdict</th><th class=\"l\">promised</th><th class=\"l\">measured</th></tr>\n");
        for (FaultReport.Promise p : report.promises()) {
            String cls = switch (p.verdict()) {
                case VIOLATED -> "bad";
                case KEPT -> "ok";
                default -> "na";
            };
            b.append("<tr><td class=\"l\">").append(esc(p.mode())).append("</td><td class=\"l\">").append(esc(p.check().title()))
                    .append("</td><td class=\"l ").append(cls).append("\">").append(p.verdict()).append("</td><td class=\"l\">")
                    .append(esc(p.promised())).append("</td><td class=\"l\">").append(esc(p.measured())).append("</td></tr>\n");
        }
        b.append("</table>\n<h2>Findings</h2>\n");
        for (FaultReport.RunResult run : report.runs()) {
            for (CheckResult r : run.results().values()) {
                if (r.findings().isEmpty()) {
                    continue;
                }
                b.append("<h3>").append(esc(run.mode())).append(", seed ").append(run.info().seed()).append(": ")
                        .append(esc(r.check().title()))
                        .append(" (").append(r.findings().size()).append(" findings, ").append(r.violations())
                        .append(" violations)</h3>\n<ul>\n");
                for (Finding f : r.findings().subList(0, Math.min(LISTED_FINDINGS, r.findings().size()))) {
                    b.append("<li").append(f.violation() ? " class=\"bad\"" : "").append(">").append(esc(attribution(run, f)))
                            .append("<code>").append(esc(f.subject())).append("</code>: ").append(esc(f.detail())).append("</li>\n");
                }
                b.append("</ul>\n");
            }
        }
        b.append("<h2>Checks</h2>\n<dl>\n");
        for (Check c : Check.values()) {
            b.append("<dt>").append(esc(c.title())).append("</dt><dd>").append(esc(c.description())).append("</dd>\n");
        }
        b.append("</dl>\n<p>How to read this page: docs/reliability.md.</p>\n</body></html>\n");
        return b.toString();
    }

    private static String cell(String text, boolean bad) {
        return "<td" + (bad ? " class=\"bad\"" : "") + ">" + esc(text) + "</td>";
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
