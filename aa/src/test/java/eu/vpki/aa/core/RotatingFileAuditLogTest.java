package eu.vpki.aa.core;

import eu.vpki.common.testing.ManualClock;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.etsi.ts103097.HashedId8;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class RotatingFileAuditLogTest {
    private static final Instant T0 = Instant.parse("2026-11-20T12:00:00Z");
    private static final HashedId8 AT = HashedId8.fromHex("0102030405060708");
    private static final HashedId8 EA = HashedId8.fromHex("A1A2A3A4A5A6A7A8");

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(T0);

    private static AuditRecord issued(Instant t) {
        return new AuditRecord(t, AuditRecord.Outcome.ISSUED, 0, AT, EA, null);
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    @Test
    void appendsOneLinePerRecord_inTheDocumentedFormat() throws IOException {
        try (RotatingFileAuditLog log = new RotatingFileAuditLog(dir, "aa-1", 1 << 20, Duration.ofDays(1), clock)) {
            log.append(issued(T0));
            log.append(new AuditRecord(T0, AuditRecord.Outcome.REFUSED, 22, null, EA, ErrorCode.EA_REFUSED));
            log.append(new AuditRecord(T0, AuditRecord.Outcome.UNDECRYPTABLE, 5, null, null, ErrorCode.DECRYPTION_FAILED));
            assertThat(Files.readAllLines(log.activeFile(), StandardCharsets.UTF_8)).containsExactly(
                    "2026-11-20T12:00:00Z issued code=0 at=0102030405060708 ea=A1A2A3A4A5A6A7A8 reason=-",
                    "2026-11-20T12:00:00Z refused code=22 at=- ea=A1A2A3A4A5A6A7A8 reason=EA_REFUSED",
                    "2026-11-20T12:00:00Z undecryptable code=5 at=- ea=- reason=DECRYPTION_FAILED");
            assertThat(log.activeFile().getFileName()).hasToString("aa-audit-aa-1.log");
        }
    }

    @Test
    void rotatesBySize_withoutLosingOrSplittingLines() throws IOException {
        int lineBytes = issued(T0).line().length() + 1;
        try (RotatingFileAuditLog log = new RotatingFileAuditLog(dir, "aa-1", 1024, Duration.ofDays(1), clock)) {
            for (int i = 0; i < 50; i++) {
                log.append(issued(T0));
                clock.advance(Duration.ofMillis(1));
            }
        }
        List<Path> files = files();
        assertThat(files.size()).isGreaterThanOrEqualTo(50 * lineBytes / 1024);
        long lines = 0;
        for (Path f : files) {
            assertThat(Files.size(f)).isLessThanOrEqualTo(1024);
            List<String> content = Files.readAllLines(f);
            assertThat(content).allSatisfy(l -> assertThat(l).endsWith("reason=-").startsWith("2026-11-20T12:00:00"));
            lines += content.size();
        }
        assertThat(lines).isEqualTo(50);
    }

    @Test
    void rotatesByTime_andNamesTheRotatedFileByTheRotationTime() throws IOException {
        try (RotatingFileAuditLog log = new RotatingFileAuditLog(dir, "aa-1", 1 << 20, Duration.ofHours(1), clock)) {
            log.append(issued(T0));
            clock.advance(Duration.ofMinutes(59));
            log.append(issued(clock.instant()));
            clock.advance(Duration.ofMinutes(1));
            log.append(issued(clock.instant()));
        }
        assertThat(files()).extracting(p -> p.getFileName().toString())
                .containsExactly("aa-audit-aa-1-20261120T130000.000.log", "aa-audit-aa-1.log");
        assertThat(Files.readAllLines(dir.resolve("aa-audit-aa-1-20261120T130000.000.log"))).hasSize(2);
        assertThat(Files.readAllLines(dir.resolve("aa-audit-aa-1.log"))).hasSize(1);
    }

    @Test
    void reopening_appendsToTheActiveFile_andKeepsItsAge() throws IOException {
        try (RotatingFileAuditLog log = new RotatingFileAuditLog(dir, "aa-1", 1 << 20, Duration.ofHours(1), clock)) {
            log.append(issued(T0));
        }
        clock.advance(Duration.ofMinutes(30));
        try (RotatingFileAuditLog log = new RotatingFileAuditLog(dir, "aa-1", 1 << 20, Duration.ofHours(1), clock)) {
            log.append(issued(clock.instant()));
            clock.advance(Duration.ofMinutes(30));
            log.append(issued(clock.instant())); // the file was opened at T0: an hour old now
        }
        assertThat(files()).hasSize(2);
        assertThat(Files.readAllLines(dir.resolve("aa-audit-aa-1.log"))).hasSize(1);
    }
}
