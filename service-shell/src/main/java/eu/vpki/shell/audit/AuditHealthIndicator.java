package eu.vpki.shell.audit;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * UP while the audit file takes writes, OUT_OF_SERVICE while it does not: an authority that cannot
 * record what it issues must not be sent requests (the AA refuses to hand out an AT whose event was
 * not written).
 */
public final class AuditHealthIndicator implements HealthIndicator {
    private final LogbackAuditLog audit;

    public AuditHealthIndicator(LogbackAuditLog audit) {
        this.audit = audit;
    }

    @Override
    public Health health() {
        String failure = audit.failure();
        Health.Builder health = failure == null ? Health.up() : Health.outOfService().withDetail("detail", failure);
        return health.withDetail("file", audit.file().toString()).build();
    }
}
