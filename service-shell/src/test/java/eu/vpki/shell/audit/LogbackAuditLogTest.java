package eu.vpki.shell.audit;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.util.unit.DataSize;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The audit file through logback: its lines, its separation from the debug log, rolling, a failing file, a reset logger. */
class LogbackAuditLogTest {
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    @TempDir
    Path dir;
    private final List<LogbackAuditLog> opened = new ArrayList<>();
    private final ListAppender<ILoggingEvent> root = new ListAppender<>();

    private LogbackAuditLog open(DataSize maxFileSize) {
        return open(dir, maxFileSize);
    }

    private LogbackAuditLog open(Path directory, DataSize maxFileSize) {
        AuditProperties properties = new AuditProperties(directory, null, null, maxFileSize, 0, AuditProperties.Format.TEXT);
        LogbackAuditLog log = new LogbackAuditLog("aa", "test-" + INSTANCES.incrementAndGet(), properties);
        opened.add(log);
        return log;
    }

    private List<String> lines() throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                lines.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
            }
        }
        return lines;
    }

    @AfterEach
    void close() {
        opened.forEach(LogbackAuditLog::close);
        rootLogger().detachAppender(root);
    }

    private static Logger rootLogger() {
        return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    @Test
    void event_isOneLineInItsOwnFile_andNeverReachesTheDebugLog() throws IOException {
        root.start();
        rootLogger().addAppender(root);
        LogbackAuditLog audit = open(DataSize.ofMegabytes(1));
        audit.event("issued", "code", "0", "at", "30670162A4EDDD59", "ea", "0A9DA2E8AB3B3424", "reason", "-");

        assertThat(audit.file().getFileName().toString()).startsWith("aa-audit-test-").endsWith(".log");
        assertThat(Files.readAllLines(audit.file())).singleElement().asString()
                .matches(
                        "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z issued code=0 at=30670162A4EDDD59 ea=0A9DA2E8AB3B3424 reason=-");
        assertThat(root.list).as("audit events stay out of the debug log").isEmpty();
        assertThat(audit.failure()).isNull();
    }

    @Test
    void fileRolls_bySize_withoutLosingAnEvent() throws IOException {
        LogbackAuditLog audit = open(DataSize.ofKilobytes(1));
        for (int i = 0; i < 200; i++) {
            audit.event("issued", "n", Integer.toString(i), "padding", "x".repeat(40));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.count()).as("rolled files").isGreaterThan(2);
        }
        List<String> lines = lines();
        assertThat(lines).hasSize(200);
        for (int i = 0; i < 200; i++) {
            int n = i;
            assertThat(lines).anyMatch(l -> l.contains(" n=" + n + " "));
        }
    }

    @Test
    void aWriteThatFails_isReportedToTheCaller_untilTheFileWorksAgain() throws IOException {
        LogbackAuditLog audit = open(DataSize.ofMegabytes(1));
        audit.event("issued", "n", "1");
        audit.appender().getOutputStream().close(); // the file's stream breaks, as on a disk that fails

        assertThatThrownBy(() -> audit.event("issued", "n", "2")).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("not written");
        assertThat(audit.appender().isStarted()).as("a failed write stops the appender").isFalse();

        // the next event opens the file again
        audit.event("issued", "n", "3");
        assertThat(audit.failure()).isNull();
        assertThat(new AuditHealthIndicator(audit).health().getStatus().getCode()).isEqualTo("UP");
        assertThat(lines()).anyMatch(l -> l.endsWith("issued n=1")).anyMatch(l -> l.endsWith("issued n=3"))
                .noneMatch(l -> l.endsWith("issued n=2"));
    }

    @Test
    void healthCheck_opensAFailedFileAgain_soAnIdleServiceComesBack() throws IOException {
        LogbackAuditLog audit = open(DataSize.ofMegabytes(1));
        audit.appender().getOutputStream().close();
        assertThatThrownBy(() -> audit.event("issued", "n", "lost")).isInstanceOf(UncheckedIOException.class);

        assertThat(new AuditHealthIndicator(audit).health().getStatus().getCode()).isEqualTo("UP");
        audit.event("issued", "n", "after");
        assertThat(lines()).anyMatch(l -> l.endsWith("issued n=after"));
    }

    @Test
    void aFileThatCannotBeOpenedAgain_isOutOfService_untilItCanBe() throws IOException {
        Path auditDir = dir.resolve("audit");
        LogbackAuditLog audit = open(auditDir, DataSize.ofMegabytes(1));
        audit.appender().getOutputStream().close();
        Files.delete(audit.file());
        Files.delete(auditDir);
        Files.writeString(auditDir, "not a directory any more");

        assertThatThrownBy(() -> audit.event("issued", "n", "1")).isInstanceOf(UncheckedIOException.class);
        var health = new AuditHealthIndicator(audit).health();
        assertThat(health.getStatus().getCode()).isEqualTo("OUT_OF_SERVICE");
        assertThat(health.getDetails().get("detail").toString()).contains("reopening failed");

        Files.delete(auditDir);
        assertThat(new AuditHealthIndicator(audit).health().getStatus().getCode()).isEqualTo("UP");
        audit.event("issued", "n", "2");
        assertThat(Files.readAllLines(audit.file())).singleElement().asString().endsWith("issued n=2");
    }

    @Test
    void aLoggerResetBySomethingElse_isRepairedOnTheNextEvent() throws IOException {
        LogbackAuditLog audit = open(DataSize.ofMegabytes(1));
        Logger logger = audit.logger();
        logger.detachAndStopAllAppenders();
        logger.setAdditive(true);
        logger.setLevel(ch.qos.logback.classic.Level.OFF);

        audit.event("issued", "n", "after-reset");
        assertThat(lines()).anyMatch(l -> l.endsWith("issued n=after-reset"));
        assertThat(logger.isAdditive()).isFalse();
    }

    @Test
    void aDirectoryThatCannotBeCreated_failsAtOnce() throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        AuditProperties properties = new AuditProperties(notADirectory.resolve("audit"), null, null, DataSize.ofMegabytes(1), 0,
                AuditProperties.Format.TEXT);
        assertThatThrownBy(() -> new LogbackAuditLog("aa", "bad", properties)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("vpki.audit.dir");
    }
}
