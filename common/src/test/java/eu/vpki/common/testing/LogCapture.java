package eu.vpki.common.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Captures what one logger writes (logback), for tests that check what an operator reads in the
 * log: {@code try (LogCapture log = LogCapture.of(EnrolmentService.class)) { ... log.events() ... }}.
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

    /** The events logged so far at {@code level} or above. */
    public List<ILoggingEvent> events(Level level) {
        return appender.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(level)).toList();
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
