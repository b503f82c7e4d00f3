package eu.vpki.shell.management;

import eu.vpki.common.etsi.ts103097.EtsiCertificate;

import java.time.Instant;
import java.util.Objects;

/**
 * A certificate this service depends on and an operator must renew in time: an authority's own ETSI
 * certificate ({@code ea}, {@code aa}, {@code rca}), the root certificate it trusts, its replication TLS
 * certificate. A service declares one bean per certificate; the shell exports its remaining validity as
 * the gauge {@code vpki.certificate.expiry} (seconds, tag {@code certificate} = the name;
 * {@link CertificateExpiryAutoConfiguration}) and, on EA and Operator replicas, in
 * {@code /actuator/replication}. (The HTTPS certificates of Spring Boot SSL bundles have Spring Boot's own
 * gauge, {@code ssl.chain.expiry}.)
 *
 * @param name     a short stable name, the gauge's tag ({@code ea}, {@code rca}, {@code replication-tls})
 * @param subject  what the certificate names (an ETSI certificate's name, an X.509 subject)
 * @param notAfter the end of its validity
 */
public record ManagedCertificate(String name, String subject, Instant notAfter) {
    public ManagedCertificate {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(notAfter, "notAfter");
        subject = subject == null ? "" : subject;
    }

    /** An ETSI certificate under {@code name}: its name (else its HashedId8) and the end of its validity. */
    public static ManagedCertificate etsi(String name, EtsiCertificate certificate) {
        return new ManagedCertificate(name, certificate.name().orElseGet(() -> certificate.hashedId8().toHex()),
                certificate.validity().end());
    }
}
