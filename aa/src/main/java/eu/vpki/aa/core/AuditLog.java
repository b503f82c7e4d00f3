package eu.vpki.aa.core;

/**
 * The AA's append-only offline audit log, local to each AA process. A record is written before the
 * response leaves: an AT whose record cannot be written is not handed out.
 */
public interface AuditLog {
    /**
     * Appends one record.
     *
     * @throws java.io.UncheckedIOException when it cannot be written
     */
    void append(AuditRecord record);
}
