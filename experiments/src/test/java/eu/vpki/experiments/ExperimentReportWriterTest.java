package eu.vpki.experiments;

import eu.vpki.station.load.PhaseResult;
import eu.vpki.station.report.SvgChart;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ExperimentReportWriterTest {
    private static final Instant T0 = Instant.parse("2026-11-24T18:00:00Z");

    private static PhaseResult step(String operation, double offered, double achieved, double p50) {
        Histogram h = new Histogram(60_000_000L, 3);
        long n = (long) (achieved * 10);
        h.recordValueWithCount((long) (p50 * 1000), n);
        return new PhaseResult(operation + " " + offered, operation, "open loop", offered, (long) (offered * 10), n,
                achieved < offered ? Map.of("client:timeout", (long) ((offered - achieved) * 10)) : Map.of(), T0, Duration.ofSeconds(10), h,
                List.of());
    }

    private static ExperimentReport report() {
        Sweep at = new Sweep("AT, 1 core per host", PhaseResult.AUTHORIZATION, Map.of("cpusPerHost", "1"),
                List.of(step(PhaseResult.AUTHORIZATION, 10, 10, 15), step(PhaseResult.AUTHORIZATION, 20, 20, 18),
                        step(PhaseResult.AUTHORIZATION, 40, 25, 900)));
        ExperimentReport.Figure figure = new ExperimentReport.Figure("Figs. 3-5", "AT latency", "2 cores cannot show 8 vCPU.", "AT/s",
                "latency (ms)", true, List.of(
                        new ExperimentReport.Curve("ours p50", "#d62728", "", ExperimentReport.Kind.MEASURED,
                                at.steps().stream().map(p -> new double[]{p.achievedRate(), p.latencyMillis(50)}).toList()),
                        ExperimentReport.Curve.paperX("paper: >300 AT/s, 8 vCPU", 300),
                        ExperimentReport.Curve.paperY("paper: ~20 ms before saturation", 20)));
        return new ExperimentReport(PaperValues.CENTRALISED, "Centralised", T0, T0.plusSeconds(95), Map.of("machine", "2 cores"),
                List.of("Limits above 2 cores cannot be reproduced here."), List.of(figure),
                List.of(new ExperimentReport.Comparison(PaperValues.AT_SATURATION_2_VCPU, "25 AT/s (AT, 1 core per host)")),
                List.of(new ExperimentReport.Table("Consistency anomalies", List.of("mode", "stale validations"),
                        List.of(List.of("FIFO + ASYNC", "3 of 120")))),
                List.of(at), true);
    }

    @Test
    void sweep_peakAndSaturation_andLowestLoadStep() {
        Sweep at = report().sweeps().get(0);
        assertThat(at.saturated()).isTrue();
        assertThat(at.peakRate()).isEqualTo(25.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(at.lowestLoad()).get().extracting(PhaseResult::offeredRate).isEqualTo(10.0);
    }

    @Test
    void html_showsTheLimitsThePapersTableTheChartsAndEveryStep() {
        String html = ExperimentReportWriter.html(report(), "c");
        assertThat(html).contains("What this run cannot show", "Limits above 2 cores cannot be reproduced here.")
                .contains("<td class=\"l\">Figs. 3-5</td>", "a little above 100 AT/s", "25 AT/s (AT, 1 core per host)")
                .contains("Shaped like the paper's Figs. 3-5", "2 cores cannot show 8 vCPU.")
                .contains("paper: &gt;300 AT/s, 8 vCPU", "c-sweep1.html", "client:timeout")
                .contains("<h2>Consistency anomalies</h2>", "<td class=\"l\">3 of 120</td>");
    }

    @Test
    void chart_stretchesThePapersLinesAcrossAxesThatShowThem() {
        SvgChart chart = ExperimentReportWriter.chart(report().figures().get(0));
        String svg = chart.svg();
        // the paper's 300 AT/s lies beyond our 25 AT/s: the x axis must reach it, and the 20 ms line must be inside the plot
        assertThat(svg).contains("paper: &gt;300 AT/s, 8 vCPU", "paper: ~20 ms before saturation");
        double[] area = SvgChart.plotArea();
        assertThat(chart.drawnPoints()).hasSize(3 + 2 + 2).allSatisfy(p -> {
            assertThat(p[0]).isBetween(area[0], area[0] + area[2]);
            assertThat(p[1]).isBetween(area[1], area[1] + area[3]);
        });
    }

    @Test
    void json_carriesComparisonsSweepsAndFigures(@TempDir Path dir) throws Exception {
        List<Path> files = ExperimentReportWriter.writeAll(report(), dir, "c");
        assertThat(files.get(0).getFileName().toString()).isEqualTo("c.html");
        assertThat(dir.resolve("c-sweep1.html")).exists();
        JsonNode n = JsonMapper.builder().build().readTree(java.nio.file.Files.readString(files.get(1)));
        assertThat(n.get("paper").asText()).contains("Cincilla");
        assertThat(n.get("comparisons").get(0).get("paper").asText()).isEqualTo("a little above 100 AT/s");
        JsonNode steps = n.get("sweeps").get(0).get("steps");
        assertThat(steps).hasSize(3);
        assertThat(steps.get(2).get("saturated").asBoolean()).isTrue();
        assertThat(steps.get(0).get("latencyMillis").get("p50").asDouble()).isEqualTo(15.0, org.assertj.core.data.Offset.offset(0.1));
        assertThat(n.get("figures").get(0).get("curves").get(1).get("kind").asText()).isEqualTo("PAPER_X");
        assertThat(n.get("tables").get(0).get("rows").get(0).get(1).asText()).isEqualTo("3 of 120");
    }
}
