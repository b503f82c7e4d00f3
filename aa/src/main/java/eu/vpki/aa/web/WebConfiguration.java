package eu.vpki.aa.web;

import eu.vpki.aa.config.AaProperties;
import eu.vpki.aa.core.AuthorizationService;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

/** Serves the authorization endpoint at the path of {@code vpki.aa.access-point} (default {@code /aa/authorization}). */
@Configuration(proxyBeanMethods = false)
public class WebConfiguration {
    @Bean
    AuthorizationEndpoint authorizationEndpoint(AuthorizationService service, AaProperties aa) {
        return new AuthorizationEndpoint(service, aa.maxRequestBytes());
    }

    @Bean
    RouterFunction<ServerResponse> authorizationRoute(AuthorizationEndpoint endpoint, AaProperties aa) {
        return RouterFunctions.route().POST(aa.accessPointPath(), endpoint::authorize).build();
    }
}
