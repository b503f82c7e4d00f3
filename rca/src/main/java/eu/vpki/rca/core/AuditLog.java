package eu.vpki.rca.core;

/**
 * Audit events (issuance, revocation, root creation), kept apart from debug logging. An event has a
 * type and key/value pairs; implementations must write it durably enough for the deployment.
 */
public interface AuditLog {
    /** @param keyValues alternating keys and values */
    void event(String type, String... keyValues);

    /** Audit events as one line each on the SLF4J logger {@code eu.vpki.audit}, e.g. to its own appender. */
    static AuditLog slf4j() {
        org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger("eu.vpki.audit");
        return (type, kv) -> {
            StringBuilder b = new StringBuilder("event=").append(type);
            for (int i = 0; i + 1 < kv.length; i += 2) {
                b.append(' ').append(kv[i]).append('=').append(kv[i + 1]);
            }
            log.info(b.toString());
        };
    }
}
