package eu.vpki.operator.web;

import eu.vpki.shell.security.BearerApi;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;

/**
 * The Operator API ({@code /operator/**}) is a bearer-token API of the service shell: a call needs
 * an operator's token from the credentials file ({@link OperatorCredentials}), checked before the
 * body is read; the operator id becomes the request's principal.
 */
@Configuration(proxyBeanMethods = false)
public class OperatorApi {
    @Bean
    BearerApi operatorBearerApi(OperatorCredentials credentials) {
        return new BearerApi("operator", List.of("/operator/**"), credentials::authenticate);
    }
}
