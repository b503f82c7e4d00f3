package eu.vpki.operator.web;

import eu.vpki.operator.config.OperatorProperties;
import eu.vpki.shell.limits.RequestBodyLimit;
import eu.vpki.shell.security.BearerApi;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;

/**
 * Configures the access to the Operator API ({@code /operator/**}, served by {@link StationController}):
 * it is a bearer-token API of the service shell, so a call needs an operator's token from the
 * credentials file ({@link OperatorCredentials}), checked before the body is read, and the operator id
 * becomes the request's principal; its bodies are bounded by {@code vpki.operator.max-request-bytes}.
 * (Not to be confused with the station's client of this API, {@code OperatorClient}.)
 */
@Configuration(proxyBeanMethods = false)
public class OperatorApiConfiguration {
    @Bean
    BearerApi operatorBearerApi(OperatorCredentials credentials) {
        return new BearerApi("operator", List.of("/operator/**"), credentials::authenticate);
    }

    /**
     * Bodies over {@code vpki.operator.max-request-bytes} are refused (413) by the service shell before
     * anything buffers or parses them: the batch-size check then runs on a bounded body.
     */
    @Bean
    RequestBodyLimit operatorRequestBodyLimit(OperatorProperties properties) {
        return new RequestBodyLimit("vpki.operator.max-request-bytes", List.of("/operator/**"), properties.maxRequestBytes().toBytes());
    }
}
