package eu.vpki.terraform;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Prometheus rules in {@code deploy/prometheus} ({@code docs/operations.md}, "Alerts") are valid and do what
 * their tests say, and the scrape configuration beside them is valid: {@code promtool check rules} and {@code promtool test rules} on every test file. promtool comes
 * with Debian's {@code prometheus} package ({@code .ci/run} installs it as root); without it the test is skipped,
 * except under {@code CI=true}, where it fails. The last test shows that a broken rule fails its tests.
 */
class PrometheusRulesTest {
    static final Path PROMETHEUS = DeploymentKeysTest.REPOSITORY.resolve("deploy/prometheus");
    static final Path RULES = PROMETHEUS.resolve("vpki-rules.yml");

    /** What promtool answered. */
    record Run(int exit, String output) {
    }

    @Test
    void theRulesAreValid() throws Exception {
        Run check = promtool(PROMETHEUS, "check", "rules", RULES.toString());
        assertThat(check.exit()).as(check.output()).isZero();
    }

    @Test
    void theScrapeConfiguration_isValid_andLoadsTheRules() throws Exception {
        Run check = promtool(PROMETHEUS, "check", "config", "prometheus.yml");
        assertThat(check.exit()).as(check.output()).isZero();
        assertThat(check.output()).contains("1 rule files found");
    }

    @Test
    void everyRulePassesItsTests() throws Exception {
        List<String> tests = testFiles();
        assertThat(tests).isNotEmpty();
        List<String> command = new ArrayList<>(List.of("test", "rules"));
        command.addAll(tests);
        Run run = promtool(PROMETHEUS, command.toArray(String[]::new));
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("SUCCESS").doesNotContain("FAILED");
    }

    @Test
    void everyAlertHasATest() throws IOException {
        String rules = Files.readString(RULES);
        StringBuilder tests = new StringBuilder();
        for (String file : testFiles()) {
            tests.append(Files.readString(PROMETHEUS.resolve(file)));
        }
        List<String> alerts = rules.lines().map(String::strip).filter(l -> l.startsWith("- alert: "))
                .map(l -> l.substring("- alert: ".length())).toList();
        assertThat(alerts).hasSizeGreaterThan(10);
        assertThat(alerts).allSatisfy(alert -> assertThat(tests.toString()).as("a test of " + alert)
                .contains("alertname: " + alert + "\n"));
    }

    @Test
    void aBrokenRule_failsItsTests(@TempDir Path copy) throws Exception {
        Files.createDirectories(copy.resolve("tests"));
        for (String file : testFiles()) {
            Files.copy(PROMETHEUS.resolve(file), copy.resolve(file));
        }
        // the alert on a replica that does not serve, made to look at a metric no service exports
        String rules = Files.readString(RULES);
        String broken = rules.replace("expr: vpki_replication_serving == 0", "expr: vpki_replication_serving_total == 0");
        assertThat(broken).isNotEqualTo(rules);
        Files.writeString(copy.resolve(RULES.getFileName()), broken);
        List<String> command = new ArrayList<>(List.of("test", "rules"));
        command.addAll(testFiles());
        Run run = promtool(copy, command.toArray(String[]::new));
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("FAILED", "VpkiReplicaOutOfService");
    }

    /** The test files, relative to {@code deploy/prometheus}. */
    private static List<String> testFiles() throws IOException {
        try (Stream<Path> files = Files.list(PROMETHEUS.resolve("tests"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".test.yml")).sorted()
                    .map(f -> PROMETHEUS.relativize(f).toString()).toList();
        }
    }

    /** Runs promtool in {@code directory}; skips the test without promtool unless CI=true. */
    static Run promtool(Path directory, String... arguments) throws IOException, InterruptedException {
        Path promtool = onPath("promtool");
        if (promtool == null) {
            boolean ci = "true".equals(System.getenv("CI"));
            assertThat(ci).as("promtool is not on PATH and CI=true: install Debian's prometheus package (apt-get install prometheus)")
                    .isFalse();
            Assumptions.abort("promtool is not on PATH (apt-get install prometheus): the Prometheus rules are not tested");
        }
        List<String> command = new ArrayList<>();
        command.add(promtool.toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("promtool did not finish within 60 s");
        }
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String directory : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(directory, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
