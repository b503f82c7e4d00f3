package eu.vpki.aa.web;

import eu.vpki.aa.config.AaProperties;
import eu.vpki.aa.core.AuthorizationService;
import eu.vpki.shell.etsi.AccessPoint;
import eu.vpki.shell.etsi.AccessPointWorkers;
import eu.vpki.shell.keys.AuthorityKeySource;
import eu.vpki.shell.limits.RequestBodyLimit;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;

/** Serves the authorization endpoint at the path of {@code vpki.aa.access-point} (default {@code /aa/authorization}). */
@Configuration(proxyBeanMethods = false)
public class WebConfiguration {
    /** Bodies over {@code vpki.aa.max-request-bytes} are refused (413) by the service shell before anything reads them. */
    @Bean
    RequestBodyLimit authorizationRequestBodyLimit(AaProperties aa) {
        return new RequestBodyLimit("vpki.aa.max-request-bytes", List.of(aa.accessPointPath()), aa.maxRequestBytes());
    }

    @Bean
    AccessPoint authorizationAccessPoint(AuthorizationService service, AaProperties aa, AuthorityKeySource keys,
                                         AccessPointWorkers workers) {
        // keys in a token (PKCS#11): decryption and signatures start on a worker, not on the event loop
        return AccessPoint.asynchronous("aa-authorization", aa.accessPointPath(), "an AuthorizationRequest",
                new AuthorizationEndpoint(service),
                keys.mayBlock(), workers);
    }
}
