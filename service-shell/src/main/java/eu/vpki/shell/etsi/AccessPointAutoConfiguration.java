package eu.vpki.shell.etsi;

import io.micrometer.observation.ObservationPredicate;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.server.observation.ServerRequestObservationContext;

/**
 * Leaves the ETSI access points out of the {@code http.server.requests} observation (every other path
 * keeps it): Spring Boot's observation filter then carries a no-op observation for them, without its
 * timers, long-task timer and tags. The services' cores time each access point request themselves.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(ObservationPredicate.class)
public class AccessPointAutoConfiguration {
    @Bean
    ObservationPredicate accessPointsNotObserved() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext server
                && AccessPointServlet.servesRequest(server.getCarrier()));
    }
}
