package eu.vpki.aa.core;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * {@link AuditLog} as a local text file, one {@link AuditRecord#line()} per request, UTF-8,
 * appended and flushed to the operating system line by line (not fsynced). The active file is
 * {@code aa-audit-<instance>.log}; it is rotated when the next line would make it larger than
 * {@code maxBytes} or when its first line is older than {@code maxAge}: renamed to
 * {@code aa-audit-<instance>-<UTC yyyyMMdd'T'HHmmss.SSS>.log} (the rotation time) and a new active
 * file started. Rotated files are never touched again; archiving them is the operator's job. The
 * instance name keeps several AA processes sharing a directory apart. Thread-safe.
 */
public final class RotatingFileAuditLog implements AuditLog, AutoCloseable {
    private static final DateTimeFormatter ROTATED = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS").withZone(ZoneOffset.UTC);

    private final Path dir;
    private final String instance;
    private final long maxBytes;
    private final Duration maxAge;
    private final Clock clock;
    private OutputStream out;
    private long size;
    private Instant opened;

    public RotatingFileAuditLog(Path dir, String instance, long maxBytes, Duration maxAge, Clock clock) {
        if (!instance.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("audit instance name must be 1-64 characters of [A-Za-z0-9._-]: " + instance);
        }
        if (maxBytes < 1024 || maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("audit rotation needs maxBytes >= 1024 and a positive maxAge");
        }
        this.dir = dir;
        this.instance = instance;
        this.maxBytes = maxBytes;
        this.maxAge = maxAge;
        this.clock = clock;
        try {
            Files.createDirectories(dir);
            open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the audit log in " + dir, e);
        }
    }

    /** The file currently appended to. */
    public Path activeFile() {
        return dir.resolve("aa-audit-" + instance + ".log");
    }

    @Override
    public synchronized void append(AuditRecord record) {
        byte[] line = (record.line() + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            Instant now = clock.instant();
            if (size > 0 && (size + line.length > maxBytes || !now.isBefore(opened.plus(maxAge)))) {
                rotate(now);
            }
            if (size == 0) {
                opened = now;
            }
            out.write(line);
            out.flush();
            size += line.length;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the audit log " + activeFile(), e);
        }
    }

    private void open() throws IOException {
        Path active = activeFile();
        out = Files.newOutputStream(active, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        size = Files.size(active);
        opened = size == 0 ? clock.instant() : firstLineTime(active);
    }

    private Instant firstLineTime(Path file) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String first = r.readLine();
            return first == null ? clock.instant() : Instant.parse(first.substring(0, first.indexOf(' ')));
        } catch (DateTimeParseException | StringIndexOutOfBoundsException e) {
            return clock.instant(); // not ours to judge: keep appending, rotate by size or from now on
        }
    }

    private void rotate(Instant now) throws IOException {
        out.close();
        Path target = dir.resolve("aa-audit-" + instance + "-" + ROTATED.format(now) + ".log");
        for (int n = 1; Files.exists(target); n++) {
            target = dir.resolve("aa-audit-" + instance + "-" + ROTATED.format(now) + "-" + n + ".log");
        }
        Files.move(activeFile(), target, StandardCopyOption.ATOMIC_MOVE);
        open();
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
