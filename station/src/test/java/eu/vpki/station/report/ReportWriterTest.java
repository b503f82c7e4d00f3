package eu.vpki.station.report;

import eu.vpki.station.load.LoadModel;
import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.load.Outcome;
import eu.vpki.station.load.PhaseResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class ReportWriterTest {
    private static final Instant T0 = Instant.parse("2026-11-20T12:00:00Z");

    private static RunReport report() {
        LoadRunner runner = new LoadRunner();
        PhaseResult ok = runner.run("enrolment", PhaseResult.ENROLMENT, new LoadModel.Closed(2, 50, Duration.ofMinutes(1)), i -> Outcome.OK,
                p -> {
                });
        PhaseResult mixed = runner.run("authorization", PhaseResult.AUTHORIZATION, new LoadModel.Closed(2, 20, Duration.ofMinutes(1)),
                i -> i < 5 ? Outcome.failure("authorization:its-aa-keysdontmatch") : Outcome.OK, p -> {
                });
        return new RunReport("test run", T0, Map.of("curve", "brainpoolP256r1", "precomputed", "yes"), List.of(ok, mixed));
    }

    /** A phase of {@code n} successes: latency {@code millis} for all but the slowest, which took {@code slowest}; one interval per second. */
    private static PhaseResult phase(String name, String operation, double offered, long n, double millis, double slowest, int seconds,
                                     int startSecond) {
        Histogram h = new Histogram(60_000_000L, 3);
        h.recordValueWithCount((long) (millis * 1000), n - 1);
        h.recordValue((long) (slowest * 1000));
        List<PhaseResult.Interval> timeline = new ArrayList<>();
        for (int s = 1; s <= seconds; s++) {
            timeline.add(new PhaseResult.Interval(s, 1, n / seconds, 0, millis, s == seconds ? slowest : millis));
        }
        return new PhaseResult(name, operation, "open loop at " + offered + "/s", offered, n, n, Map.of(), T0.plusSeconds(startSecond),
                Duration.ofSeconds(seconds), h, timeline);
    }

    /** An enrolment, then a sweep of three AT steps whose last one has a p99.9 three orders of magnitude above its median. */
    static RunReport sweep() {
        return new RunReport("AT sweep", T0, Map.of("load model", "open loop, rate x1.5"), List.of(
                phase("enrolment", PhaseResult.ENROLMENT, 40, 400, 30, 60, 10, 0),
                phase("sweep 50/s", PhaseResult.AUTHORIZATION, 50, 500, 20, 40, 10, 12),
                phase("sweep 75/s", PhaseResult.AUTHORIZATION, 75, 750, 25, 90, 10, 24),
                phase("sweep 112/s", PhaseResult.AUTHORIZATION, 112, 1000, 40, 45_000, 10, 36)));
    }

    @Test
    void json_carriesEveryPhaseWithPercentilesFailuresAndTimeline() {
        JsonNode n = JsonMapper.builder().build().readTree(ReportWriter.json(report()));
        assertThat(n.get("phases")).hasSize(2);
        assertThat(n.get("phases").get(0).get("succeeded").asLong()).isEqualTo(50);
        assertThat(n.get("phases").get(0).get("operation").asText()).isEqualTo("enrolment");
        assertThat(n.get("phases").get(1).get("failuresByCode").get("authorization:its-aa-keysdontmatch").asLong()).isEqualTo(5);
        assertThat(n.get("phases").get(0).get("latencyMillis").has("p999")).isTrue();
        long inTimeline = 0;
        for (JsonNode i : n.get("phases").get(0).get("timeline")) {
            inTimeline += i.get("succeeded").asLong();
        }
        assertThat(inTimeline).isEqualTo(50);
        assertThat(n.get("allSucceeded").asBoolean()).isFalse();
        assertThat(n.get("settings").get("precomputed").asText()).isEqualTo("yes");
    }

    @Test
    void textAndCsv_listEveryPhase() {
        RunReport r = report();
        assertThat(ReportWriter.text(r)).contains("enrolment", "authorization", "failed 5 x authorization:its-aa-keysdontmatch",
                "SOME OPERATIONS FAILED");
        List<String> lines = ReportWriter.csv(r).lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("phase,model,offered_rate,achieved_rate").endsWith(",operation");
        assertThat(lines.get(2)).startsWith("authorization,").contains(",20,15,5,").endsWith(",authorization");
    }

    @Test
    void html_hasResultsFourChartsWithLegendsAndTheConfiguration(@TempDir Path dir) throws Exception {
        RunReport r = sweep();
        List<Path> files = ReportWriter.writeAll(r, dir, "run");
        assertThat(files).allSatisfy(f -> assertThat(f).exists());
        String html = Files.readString(dir.resolve("run.html"));
        assertThat(html.split("<svg", -1)).hasSize(1 + 4);
        assertThat(html).contains("Throughput over time", "Latency over time", "Latency by percentile",
                "Latency versus achieved throughput");
        assertThat(html).contains(">enrolment (EC)<", ">authorization (AT) p99.9<", ">authorization (AT): sweep 112/s<");
        assertThat(html).contains("<h2>Run configuration</h2>", ">load model<", ">open loop, rate x1.5<");
    }

    @Test
    void latencyVersusThroughput_joinsOnlyPhasesOfOneOperation() {
        // a demo: one enrolment phase and one authorization phase: points only, nothing joins EC and AT
        SvgChart demo = ReportCharts.latencyVersusThroughput(List.of(phase("enrolment", PhaseResult.ENROLMENT, 40, 400, 30, 60, 10, 0),
                phase("authorization", PhaseResult.AUTHORIZATION, 80, 800, 20, 50, 10, 12)));
        assertThat(Pattern.compile("<path d=\"M[^\"]* L").matcher(demo.svg()).find()).as("a line between points").isFalse();
        assertThat(demo.drawnPoints()).hasSize(2 * 3);

        // a sweep after an enrolment: the AT steps form one curve per percentile, the EC stays a point of its own
        String svg = ReportCharts.latencyVersusThroughput(sweep().phases()).svg();
        List<String> strokes = new ArrayList<>();
        Matcher m = Pattern.compile("<path d=\"[^\"]*\" fill=\"none\" stroke=\"(#[0-9a-f]{6})\"").matcher(svg);
        while (m.find()) {
            strokes.add(m.group(1));
        }
        assertThat(strokes).hasSize(3).containsOnly(ReportCharts.colour(PhaseResult.AUTHORIZATION));
    }

    @Test
    void everyChartKeepsEveryPointInsideThePlotArea_p999Included() {
        List<PhaseResult> phases = sweep().phases();
        double[] area = SvgChart.plotArea();
        for (SvgChart chart : List.of(ReportCharts.throughputOverTime(phases), ReportCharts.latencyOverTime(phases),
                ReportCharts.percentileDistribution(phases), ReportCharts.latencyVersusThroughput(phases))) {
            List<double[]> points = chart.drawnPoints();
            assertThat(points).isNotEmpty().allSatisfy(p -> {
                assertThat(p[0]).isBetween(area[0], area[0] + area[2]);
                assertThat(p[1]).isBetween(area[1], area[1] + area[3]);
            });
        }
        // the 45 s p99.9 of the last step is drawn (not dropped), at the top of its chart
        SvgChart vs = ReportCharts.latencyVersusThroughput(phases);
        assertThat(vs.drawnPoints()).hasSize(3 + 3 * 3);
        assertThat(vs.drawnPoints().stream().mapToDouble(p -> p[1]).min().orElseThrow()).isLessThan(area[1] + area[3] * 0.2);
    }

    @Test
    void percentileDistribution_reachesTheSlowestOperation() {
        PhaseResult p = phase("authorization", PhaseResult.AUTHORIZATION, 80, 1000, 20, 900, 10, 0);
        SvgChart chart = ReportCharts.percentileDistribution(List.of(p));
        // the last point of the line: one operation in 1,000 (99.9 %), at the slowest latency
        assertThat(chart.drawnPoints()).last().satisfies(last -> {
            double[] area = SvgChart.plotArea();
            assertThat(last[0]).isCloseTo(area[0] + area[2], org.assertj.core.data.Offset.offset(1.0));
        });
        assertThat(chart.svg()).contains(">99.9%<", ">1,000 ms<");
    }
}
