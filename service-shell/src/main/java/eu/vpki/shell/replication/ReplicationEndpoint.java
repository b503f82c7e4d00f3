package eu.vpki.shell.replication;

import eu.vpki.common.replication.ReplicationSnapshot;
import eu.vpki.shell.management.CertificateExpiryAutoConfiguration;
import eu.vpki.shell.management.ManagedCertificate;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code GET /actuator/replication} on the management port of every EA and Operator replica: what this
 * replica knows of the group ({@link ReplicationSnapshot}: view, coordinator, each member's applied
 * positions per origin and lag, the serving gate and why it is closed, the command log, gaps and
 * hold-back, its Redis's memory) and the remaining validity of the certificates the service declared
 * ({@link ManagedCertificate}). Read-only; {@code vpki-admin status} reads it from every replica and
 * prints the cluster in one table ({@code docs/operations.md}).
 */
@Endpoint(id = "replication")
public final class ReplicationEndpoint {

    /**
     * The endpoint's answer.
     *
     * @param replication  the replica's snapshot
     * @param certificates the service's certificates and how long each remains valid
     */
    public record Report(ReplicationSnapshot replication, List<Certificate> certificates) {
    }

    /**
     * A certificate's remaining validity.
     *
     * @param name             its short name ({@link ManagedCertificate#name()})
     * @param subject          what it names
     * @param notAfter         the end of its validity (ISO-8601)
     * @param remainingSeconds seconds until then; negative once it ended
     */
    public record Certificate(String name, String subject, String notAfter, long remainingSeconds) {
    }

    private final Supplier<ReplicationSnapshot> snapshot;
    private final List<ManagedCertificate> certificates;
    private final Clock clock;

    public ReplicationEndpoint(Supplier<ReplicationSnapshot> snapshot, List<ManagedCertificate> certificates, Clock clock) {
        this.snapshot = snapshot;
        this.certificates = List.copyOf(certificates);
        this.clock = clock;
    }

    @ReadOperation
    public Report report() {
        List<Certificate> validity = certificates.stream()
                .map(c -> new Certificate(c.name(), c.subject(), c.notAfter().toString(),
                        CertificateExpiryAutoConfiguration.remainingSeconds(c, clock)))
                .toList();
        return new Report(snapshot.get(), validity);
    }
}
