package eu.vpki.shell.replication;

import eu.vpki.common.replication.ReplicaStatus;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * The replica's health from a {@link ReplicaStatus} snapshot: UP while it serves, else
 * OUT_OF_SERVICE (failed, in a minority, starting, catching up, holding a gap, closed), so a load
 * balancer stops sending to it; the details name the state, the view, its origin, the commands it
 * lacks or holds back, and why.
 */
public final class ReplicaHealthIndicator implements HealthIndicator {
    private final Supplier<ReplicaStatus> status;

    public ReplicaHealthIndicator(Supplier<ReplicaStatus> status) {
        this.status = status;
    }

    @Override
    public Health health() {
        ReplicaStatus s = status.get();
        Health.Builder health = s.serving() ? Health.up() : Health.outOfService();
        health.withDetail("state", s.state().name().toLowerCase(Locale.ROOT))
                .withDetail("viewSize", s.viewSize())
                .withDetail("expectedMembers", s.expectedMembers());
        if (!s.origin().isEmpty()) {
            health.withDetail("origin", s.origin());
        }
        if (s.missingCommands() > 0 || s.heldCommands() > 0) {
            health.withDetail("missingCommands", s.missingCommands()).withDetail("heldCommands", s.heldCommands());
        }
        if (!s.detail().isEmpty()) {
            health.withDetail("detail", s.detail());
        }
        return health.build();
    }
}
