package eu.vpki.ea.web;

import eu.vpki.ea.core.AuthorizationValidationService;
import eu.vpki.ea.core.EnrolmentService;
import eu.vpki.shell.etsi.AccessPointServlet;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * TS 102 941 access points of the EA (Annex D conventions), plain servlets of the service shell
 * ({@link AccessPointServlet}): POST the raw COER request with {@code Content-Type: application/x-its-request};
 * the answer is HTTP 200 with {@code application/x-its-response} (also for refusals, which are encrypted
 * ETSI responses). A body over {@code vpki.ea.max-request-bytes} never gets here: the service shell
 * refuses it (413) before it is buffered.
 * <ul>
 *   <li>{@value #ENROLMENT}: the EA's {@code itsAccessPoint} (enrolment and re-enrolment)</li>
 *   <li>{@value #VALIDATION}: the EA's {@code aaAccessPoint} (authorization validation, AAs only)</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
public class EaAccessPoints {
    public static final String ENROLMENT = "/ea/enrolment";
    public static final String VALIDATION = "/ea/authorization-validation";

    @Bean
    ServletRegistrationBean<AccessPointServlet> enrolmentAccessPoint(EnrolmentService enrolment, MeterRegistry registry) {
        return AccessPointServlet.registration("ea-enrolment", ENROLMENT, "an EnrolmentRequest", enrolment::enrol, registry);
    }

    @Bean
    ServletRegistrationBean<AccessPointServlet> validationAccessPoint(AuthorizationValidationService validation,
                                                                      MeterRegistry registry) {
        return AccessPointServlet.registration("ea-authorization-validation", VALIDATION, "an AuthorizationValidationRequest",
                validation::validate, registry);
    }
}
