package eu.vpki.shell.audit;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.util.FileUtil;

import java.io.BufferedOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;

/**
 * logback's rolling file appender on a plain file stream. logback's own (resilient) stream swallows a
 * failed write, drops the events that follow while it recovers, and can report a recovery on an
 * empty flush after dropping the event that triggered it: an audit log cannot tell then whether an
 * event was written. With a plain stream a failed write stops the appender, which
 * {@link LogbackAuditLog} sees after the event (and answers by opening the file again).
 */
final class AuditFileAppender extends RollingFileAppender<ILoggingEvent> {
    private static final int BUFFER_BYTES = 8192;
    private volatile String lastError;

    @Override
    public void openFile(String fileName) throws IOException {
        streamWriteLock.lock();
        try {
            File file = new File(fileName);
            if (!FileUtil.createMissingParentDirectories(file)) {
                addError("Failed to create parent directories for [" + file.getAbsolutePath() + "]");
            }
            setOutputStream(new BufferedOutputStream(new FileOutputStream(file, isAppend()), BUFFER_BYTES));
        } finally {
            streamWriteLock.unlock();
        }
    }

    @Override
    public void addStatus(Status status) {
        super.addStatus(status);
        if (status.getLevel() == Status.ERROR) {
            lastError = status.getMessage() + (status.getThrowable() == null ? "" : ": " + status.getThrowable());
        }
    }

    /** The last error logback reported for this appender, or null. */
    String lastError() {
        return lastError;
    }
}
