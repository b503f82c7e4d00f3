package eu.vpki.loadclient.report;

import eu.vpki.loadclient.measure.LoadModel;
import eu.vpki.loadclient.measure.LoadRunner;
import eu.vpki.loadclient.measure.Outcome;
import eu.vpki.loadclient.measure.PhaseResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReportWriterTest {
    private static RunReport report() {
        LoadRunner runner = new LoadRunner();
        PhaseResult ok = runner.run("enrolment", new LoadModel.Closed(2, 50, Duration.ofMinutes(1)), i -> Outcome.OK, p -> { });
        PhaseResult mixed = runner.run("authorization", new LoadModel.Closed(2, 20, Duration.ofMinutes(1)),
                i -> i < 5 ? Outcome.failure("authorization:its-aa-keysdontmatch") : Outcome.OK, p -> { });
        return new RunReport("test run", Instant.parse("2026-11-20T12:00:00Z"), Map.of("curve", "brainpoolP256r1", "precomputed", "yes"),
                List.of(ok, mixed));
    }

    @Test
    void json_carriesEveryPhaseWithPercentilesAndFailures() {
        JsonNode n = JsonMapper.builder().build().readTree(ReportWriter.json(report()));
        assertThat(n.get("phases")).hasSize(2);
        assertThat(n.get("phases").get(0).get("succeeded").asLong()).isEqualTo(50);
        assertThat(n.get("phases").get(1).get("failuresByCode").get("authorization:its-aa-keysdontmatch").asLong()).isEqualTo(5);
        assertThat(n.get("phases").get(0).get("latencyMillis").has("p99.9") || n.get("phases").get(0).get("latencyMillis").has("p999")).isTrue();
        assertThat(n.get("allSucceeded").asBoolean()).isFalse();
        assertThat(n.get("settings").get("precomputed").asText()).isEqualTo("yes");
    }

    @Test
    void textAndCsv_listEveryPhase() {
        RunReport r = report();
        assertThat(ReportWriter.text(r)).contains("enrolment", "authorization", "failed 5 x authorization:its-aa-keysdontmatch", "SOME OPERATIONS FAILED");
        List<String> lines = ReportWriter.csv(r).lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("phase,model,offered_rate,achieved_rate");
        assertThat(lines.get(2)).startsWith("authorization,").contains(",20,15,5,");
    }

    @Test
    void html_drawsOnePointPerPhaseAndSeries(@TempDir Path dir) throws Exception {
        RunReport r = report();
        List<Path> files = ReportWriter.writeAll(r, dir, "run", r.phases());
        assertThat(files).allSatisfy(f -> assertThat(f).exists());
        String html = Files.readString(dir.resolve("run.html"));
        assertThat(html).contains("<svg", "achieved throughput");
        assertThat(html.split("<circle", -1)).hasSize(1 + 2 * 3); // 2 phases x 3 percentile series
    }
}
