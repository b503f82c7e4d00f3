package eu.vpki.common.audit;

/**
 * An authority's audit trail: what it issued, refused, certified, revoked, registered, kept apart
 * from its debug logs (the service shell writes it to a file of its own, {@code docs/service-shell.md}).
 * An event is a type and key/value pairs; it never carries what would link a station's identity to its
 * pseudonyms on one server (the AA's events name no EC, station or request hash).
 */
public interface AuditLog {
    /**
     * Records one event, before the caller acts on it (answers, hands out a certificate).
     *
     * @param type      what happened, e.g. {@code ec-issued}, {@code authority-revoked}
     * @param keyValues alternating keys and values, in the order they are written
     * @throws java.io.UncheckedIOException when the event could not be written: the caller must not
     *                                      act as if it had been recorded
     */
    void event(String type, String... keyValues);
}
