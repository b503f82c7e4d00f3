package eu.vpki.aa.web;

import eu.vpki.aa.config.AaProperties;
import eu.vpki.aa.core.AuthorizationService;
import eu.vpki.shell.limits.RequestBodyLimit;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import java.util.List;

/** Serves the authorization endpoint at the path of {@code vpki.aa.access-point} (default {@code /aa/authorization}). */
@Configuration(proxyBeanMethods = false)
public class WebConfiguration {
    @Bean
    AuthorizationEndpoint authorizationEndpoint(AuthorizationService service, AaProperties aa) {
        return new AuthorizationEndpoint(service);
    }

    /** Bodies over {@code vpki.aa.max-request-bytes} are refused (413) by the service shell before anything buffers them. */
    @Bean
    RequestBodyLimit authorizationRequestBodyLimit(AaProperties aa) {
        return new RequestBodyLimit("vpki.aa.max-request-bytes", List.of(aa.accessPointPath()), aa.maxRequestBytes());
    }

    @Bean
    RouterFunction<ServerResponse> authorizationRoute(AuthorizationEndpoint endpoint, AaProperties aa) {
        return RouterFunctions.route().POST(aa.accessPointPath(), endpoint::authorize).build();
    }
}
