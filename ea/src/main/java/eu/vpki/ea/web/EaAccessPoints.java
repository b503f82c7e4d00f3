package eu.vpki.ea.web;

import eu.vpki.ea.core.AuthorizationValidationService;
import eu.vpki.ea.core.EnrolmentService;
import eu.vpki.shell.etsi.AccessPoint;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * TS 102 941 access points of the EA (Annex D conventions), served by the service shell's access point server
 * ({@link AccessPoint}): POST the raw COER request with {@code Content-Type: application/x-its-request};
 * the answer is HTTP 200 with {@code application/x-its-response} (also for refusals, which are encrypted
 * ETSI responses). A body over {@code vpki.ea.max-request-bytes} never gets here: the server refuses it (413)
 * before it is read.
 * <ul>
 *   <li>{@value #ENROLMENT}: the EA's {@code itsAccessPoint} (enrolment and re-enrolment). It waits for its
 *       replicated command (and, in SYNC, for the other replicas), so it runs on the server's worker threads.</li>
 *   <li>{@value #VALIDATION}: the EA's {@code aaAccessPoint} (authorization validation, AAs only). It reads the EC
 *       and station records from the replica's cache, or on a miss from its own Redis in one round trip, and
 *       runs on the event loop that read the request (docs/design-access-point-server.md).</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
public class EaAccessPoints {
    public static final String ENROLMENT = "/ea/enrolment";
    public static final String VALIDATION = "/ea/authorization-validation";

    @Bean
    AccessPoint enrolmentAccessPoint(EnrolmentService enrolment) {
        return AccessPoint.blocking("ea-enrolment", ENROLMENT, "an EnrolmentRequest", enrolment::enrol);
    }

    @Bean
    AccessPoint validationAccessPoint(AuthorizationValidationService validation) {
        return AccessPoint.onEventLoop("ea-authorization-validation", VALIDATION, "an AuthorizationValidationRequest", validation::validate);
    }
}
