package eu.vpki.common.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Captures what one logger writes (logback), for tests that check what an operator reads in the
 * log: {@code try (LogCapture log = LogCapture.of(EnrolmentService.class)) { ... log.events() ... }}. Thread-safe.
 */
public final class LogCapture implements AutoCloseable {
    private final Logger logger;
    private final Level previousLevel;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    private LogCapture(Logger logger) {
        this.logger = logger;
        this.previousLevel = logger.getLevel();
        logger.setLevel(Level.DEBUG);
        appender.start();
        logger.addAppender(appender);
    }

    public static LogCapture of(Class<?> loggerName) {
        return new LogCapture((Logger) LoggerFactory.getLogger(loggerName));
    }

    /**
     * The events logged so far at {@code level} or above. Safe while other threads log (a replica logs from its
     * JGroups and applier threads): the appender appends holding its own lock ({@code AppenderBase.doAppend} is
     * synchronized), and the list is copied under that lock.
     */
    public List<ILoggingEvent> events(Level level) {
        List<ILoggingEvent> logged;
        synchronized (appender) {
            logged = List.copyOf(appender.list);
        }
        return logged.stream().filter(e -> e.getLevel().isGreaterOrEqual(level)).toList();
    }

    /** The formatted messages logged so far at {@code level} or above. */
    public List<String> messages(Level level) {
        return events(level).stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(previousLevel);
    }
}
