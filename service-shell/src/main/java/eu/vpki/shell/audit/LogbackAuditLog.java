package eu.vpki.shell.audit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import eu.vpki.common.audit.AuditLog;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;
import org.springframework.boot.logging.logback.StructuredLogEncoder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@link AuditLog} through logback: events go to the logger {@code eu.vpki.audit.<authority>.<instance>} (level
 * INFO whatever {@code logging.level} says; not passed on to the console or the debug log) and from
 * there to a file appender of their own, {@code <dir>/<authority>-audit-<instance>.log}, rolled by
 * logback ({@link SizeAndTimeBasedRollingPolicy}: at {@code max-file-size} and at midnight UTC, to
 * {@code <authority>-audit-<instance>.<yyyy-MM-dd>.<n>.log}). A text line is
 * {@code <UTC time> <type> key=value ...}; a structured format writes one JSON object per event with
 * the pairs as fields. Each event is flushed to the operating system before {@link #event} returns;
 * a write that failed makes {@link #event} throw (the appender stops), and the next event, or the
 * health check ({@link #failure()}), opens the file again. If the logging system was reset (another
 * application started in the same JVM), the appender is attached again on the next event.
 */
public final class LogbackAuditLog implements AuditLog, AutoCloseable {
    /** Parent of every authority's audit logger. */
    public static final String LOGGER_PREFIX = "eu.vpki.audit.";
    private static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX,UTC} %msg%n";

    private final AuditProperties properties;
    private final String authority;
    private final String instance;
    private final Logger logger;
    private final Object attaching = new Object();
    private volatile AuditFileAppender appender;

    /**
     * Opens the audit file at once.
     *
     * @throws IllegalStateException when the directory or file cannot be created or written
     */
    public LogbackAuditLog(String authority, String instance, AuditProperties properties) {
        this.properties = properties;
        this.authority = authority;
        this.instance = instance;
        this.logger = (Logger) LoggerFactory.getLogger(LOGGER_PREFIX + authority + "." + instance);
        this.appender = attach();
    }

    /** The file events are written to now. */
    public Path file() {
        return properties.dir().resolve(authority + "-audit-" + instance + ".log");
    }

    @Override
    public void event(String type, String... keyValues) {
        AuditFileAppender current = attached();
        StringBuilder message = new StringBuilder(type);
        LoggingEventBuilder event = logger.atInfo();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            message.append(' ').append(keyValues[i]).append('=').append(keyValues[i + 1]);
            event = event.addKeyValue(keyValues[i], keyValues[i + 1]);
        }
        event.log(message.toString());
        if (!current.isStarted()) {
            throw new UncheckedIOException("audit event '" + type + "' not written to " + file(),
                    new IOException(String.valueOf(current.lastError())));
        }
    }

    /** The logger events go to (for this package's tests). */
    Logger logger() {
        return logger;
    }

    /** The appender writing the file now (for this package's tests). */
    AuditFileAppender appender() {
        return appender;
    }

    /**
     * Null while the audit file takes writes; else why not. A file whose last write failed is opened
     * again first, so a service that is out of service (and gets no requests) comes back by itself.
     */
    public String failure() {
        AuditFileAppender current = appender;
        if (current.isStarted()) {
            return null;
        }
        try {
            return attached().isStarted() ? null : "the audit appender is stopped";
        } catch (IllegalStateException stillFailing) {
            return current.lastError() + "; reopening failed: " + stillFailing.getMessage();
        }
    }

    private AuditFileAppender attached() {
        AuditFileAppender current = appender;
        if (current.isStarted() && logger.isAttached(current) && !logger.isAdditive() && logger.getLevel() == Level.INFO) {
            return current;
        }
        synchronized (attaching) {
            current = appender;
            if (!current.isStarted() || !logger.isAttached(current)) {
                logger.detachAppender(current);
                current.stop();
                appender = attach();
            }
            logger.setLevel(Level.INFO);
            logger.setAdditive(false);
            return appender;
        }
    }

    private AuditFileAppender attach() {
        LoggerContext context = logger.getLoggerContext();
        try {
            Files.createDirectories(properties.dir());
        } catch (IOException e) {
            throw new IllegalStateException("vpki.audit.dir " + properties.dir() + " cannot be created: " + e.getMessage(), e);
        }
        AuditFileAppender file = new AuditFileAppender();
        file.setContext(context);
        file.setName("vpki-audit-" + authority);
        file.setFile(file().toString());
        file.setAppend(true);
        file.setImmediateFlush(true);

        SizeAndTimeBasedRollingPolicy<ILoggingEvent> rolling = new SizeAndTimeBasedRollingPolicy<>();
        rolling.setContext(context);
        rolling.setParent(file);
        rolling.setFileNamePattern(properties.dir().resolve(authority + "-audit-" + instance + ".%d{yyyy-MM-dd,UTC}.%i.log").toString());
        rolling.setMaxFileSize(new FileSize(properties.maxFileSize().toBytes()));
        rolling.setMaxHistory(properties.maxHistory());
        rolling.start();
        file.setRollingPolicy(rolling);
        file.setEncoder(encoder(context));
        file.start();
        if (!file.isStarted()) {
            throw new IllegalStateException(
                    "the audit file " + file() + " cannot be written (vpki.audit.dir): see the logback status messages");
        }
        logger.setLevel(Level.INFO);
        logger.setAdditive(false);
        logger.addAppender(file);
        return file;
    }

    private Encoder<ILoggingEvent> encoder(LoggerContext context) {
        String structured = properties.format().structured();
        if (structured == null) {
            PatternLayoutEncoder text = new PatternLayoutEncoder();
            text.setContext(context);
            text.setPattern(TEXT_PATTERN);
            text.setCharset(java.nio.charset.StandardCharsets.UTF_8);
            text.start();
            return text;
        }
        if (context.getObject(org.springframework.core.env.Environment.class.getName()) == null) {
            throw new IllegalStateException("vpki.audit.format=" + structured + " needs Spring Boot's logging system");
        }
        StructuredLogEncoder json = new StructuredLogEncoder();
        json.setContext(context);
        json.setFormat(structured);
        json.start();
        return json;
    }

    @Override
    public void close() {
        synchronized (attaching) {
            logger.detachAppender(appender);
            appender.stop();
        }
    }
}
