package eu.vpki.common.testing;

import eu.vpki.common.audit.AuditLog;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An {@link AuditLog} for core tests: keeps every event as the text line the service shell would write (without the time). */
public final class RecordingAuditLog implements AuditLog {
    private final List<String> lines = new CopyOnWriteArrayList<>();

    @Override
    public void event(String type, String... keyValues) {
        StringBuilder line = new StringBuilder(type);
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            line.append(' ').append(keyValues[i]).append('=').append(keyValues[i + 1]);
        }
        lines.add(line.toString());
    }

    /** Every event so far, oldest first, as {@code type key=value ...}. */
    public List<String> lines() {
        return List.copyOf(lines);
    }
}
