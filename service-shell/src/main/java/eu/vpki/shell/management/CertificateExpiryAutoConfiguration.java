package eu.vpki.shell.management;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The gauge {@code vpki.certificate.expiry} (seconds until the end of its validity, negative once ended;
 * tag {@code certificate}) for every {@link ManagedCertificate} bean of the service, read from the
 * service's clock at each scrape. The Prometheus rules in {@code deploy/prometheus/} alert on it.
 */
@AutoConfiguration
public class CertificateExpiryAutoConfiguration {

    @Bean
    MeterBinder certificateExpiry(ObjectProvider<ManagedCertificate> certificates, ObjectProvider<Clock> clock) {
        return registry -> bind(registry, certificates.orderedStream().toList(), clock.getIfAvailable(Clock::systemUTC));
    }

    static void bind(MeterRegistry registry, List<ManagedCertificate> certificates, Clock clock) {
        for (ManagedCertificate certificate : certificates) {
            Gauge.builder("vpki.certificate.expiry", () -> remainingSeconds(certificate, clock))
                    .description("seconds until the certificate's validity ends (negative once it ended)").baseUnit("seconds")
                    .tag("certificate", certificate.name()).register(registry);
        }
    }

    /** Seconds from the clock's now to the certificate's end; negative once it ended. */
    public static long remainingSeconds(ManagedCertificate certificate, Clock clock) {
        return Duration.between(clock.instant(), certificate.notAfter()).toSeconds();
    }
}
