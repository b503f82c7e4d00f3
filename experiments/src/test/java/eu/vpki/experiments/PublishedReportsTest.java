package eu.vpki.experiments;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reports published in {@code docs/experiments/} name no path of the machine they were measured on
 * (every path in a report is relative to its folder: {@link ExperimentContext#where}), and the detector
 * used for it finds the paths it must.
 */
class PublishedReportsTest {
    private static final Path PUBLISHED = Path.of("").toAbsolutePath().getParent().resolve("docs/experiments");

    @Test
    void publishedReports_nameNoAbsolutePath() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(PUBLISHED)) {
            files = s.filter(p -> p.toString().endsWith(".json") || p.toString().endsWith(".html")).sorted().toList();
        }
        assertThat(files).as("the reports in %s", PUBLISHED).hasSizeGreaterThanOrEqualTo(8);
        for (Path f : files) {
            assertThat(AbsolutePaths.in(Files.readString(f))).as("absolute paths in %s", PUBLISHED.relativize(f)).isEmpty();
        }
    }

    @Test
    void detector_findsUnixAndWindowsPaths_butNotRelativePathsUnitsOrUrls() {
        assertThat(AbsolutePaths.in("\"logs\" : \"/work/wt/e19/run/e19-real/cluster-c/centralised/logs\"")).containsExactly(
                "/work/wt/e19/run/e19-real/cluster-c/centralised/logs");
        assertThat(AbsolutePaths.in("<td class=\"l\">/tmp/junit123/reports/mini-histories</td>")).hasSize(1);
        assertThat(AbsolutePaths.in("history (/home/a/b.jsonl.gz)")).hasSize(1);
        assertThat(AbsolutePaths.in("C:\\Users\\x\\run")).hasSize(1);
        assertThat(AbsolutePaths.in("../cluster-c/centralised/logs, replicas-histories/3-ea-replicas/x.history.jsonl.gz, EC/s,"
                + " 1/n, p50 / p99 ms, http://10.219.0.1:29000/ea/enrolment, TOTAL/FIFO, </td><svg><path d=\"M 0 0 L 1 1\"/></svg>"))
                .isEmpty();
    }

    @Test
    void relative_namesAPathFromTheReportsFolder() {
        Path reports = Path.of("run", "experiments").toAbsolutePath();
        assertThat(ExperimentContext.relative(reports, reports.resolve("replicas-histories/3-ea-replicas"))).isEqualTo(
                "replicas-histories/3-ea-replicas");
        assertThat(ExperimentContext.relative(reports, reports.resolveSibling("cluster").resolve("logs"))).isEqualTo("../cluster/logs");
        assertThat(ExperimentContext.relative(reports, Path.of("run/experiments/replicas.json"))).isEqualTo("replicas.json");
        assertThat(ExperimentContext.relative(reports, reports)).isEqualTo(".");
        assertThat(AbsolutePaths.in(ExperimentContext.relative(reports, Path.of("/var/tmp/elsewhere/logs")))).isEmpty();
    }
}
