package eu.vpki.shell.audit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real process, configured as an operator would: JSON lines on the console
 * ({@code logging.structured.format.console=ecs}, Spring Boot's structured logging) and JSON audit
 * events ({@code vpki.audit.format=logstash}) in the audit file, never on the console.
 */
class StructuredLoggingProcessTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    @Test
    void jsonConsole_andJsonAuditFile_keptApart() throws Exception {
        Path audit = dir.resolve("audit");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classPathWithoutTestLogging(), LoggingProbe.class.getName(),
                "--spring.main.banner-mode=off", "--spring.application.name=vpki-probe",
                "--logging.structured.format.console=ecs",
                "--vpki.audit.dir=" + audit, "--vpki.audit.instance=p1", "--vpki.audit.format=logstash"));
        Path out = dir.resolve("out.txt");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("probe finished").isTrue();
        String console = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(console).isZero();

        List<JsonNode> lines = new ArrayList<>();
        for (String line : console.split("\n")) {
            if (line.startsWith("{")) {
                lines.add(JSON.readTree(line));
            }
        }
        assertThat(lines).as(console).isNotEmpty();
        assertThat(lines).anySatisfy(l -> {
            assertThat(l.get("message").asString()).isEqualTo("probe debug line");
            assertThat(l.get("log").get("level").asString()).isEqualTo("INFO");
        });
        assertThat(console).doesNotContain("probe-event");

        List<String> auditLines = Files.readAllLines(audit.resolve("probe-audit-p1.log"), StandardCharsets.UTF_8);
        assertThat(auditLines).hasSize(1);
        JsonNode event = JSON.readTree(auditLines.get(0));
        assertThat(event.get("message").asString()).startsWith("probe-event");
        assertThat(event.get("at").asString()).isEqualTo("30670162A4EDDD59");
        assertThat(event.get("code").asString()).isEqualTo("0");
        assertThat(event.has("@timestamp")).isTrue();
    }

    /** This test's class path without the entries that carry the tests' logback-test.xml: the process logs as a service jar does. */
    private static String classPathWithoutTestLogging() throws IOException {
        List<String> kept = new ArrayList<>();
        // surefire runs the tests from a manifest-only jar and names the real class path here
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (String entry : classPath.split(File.pathSeparator)) {
            Path p = Path.of(entry);
            boolean testLogging;
            if (Files.isDirectory(p)) {
                testLogging = Files.exists(p.resolve("logback-test.xml"));
            } else if (Files.isRegularFile(p) && entry.endsWith(".jar")) {
                try (ZipFile jar = new ZipFile(p.toFile())) {
                    testLogging = jar.getEntry("logback-test.xml") != null;
                }
            } else {
                testLogging = false;
            }
            if (!testLogging) {
                kept.add(entry);
            }
        }
        return String.join(File.pathSeparator, kept);
    }
}
