package eu.vpki.shell.openapi;

import eu.vpki.shell.security.BearerApi;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.properties.SpringDocConfigProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

import java.util.List;
import java.util.Objects;

/**
 * In a service with springdoc on its class path (RCA, Operator), adds the shell's part of the
 * generated OpenAPI description: problems and bearer security ({@link ApiDocumentation}), and the check
 * that the problems its operations answer are the ones described ({@link UndeclaredProblems}).
 */
@AutoConfiguration
@ConditionalOnClass(OpenApiCustomizer.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class OpenApiAutoConfiguration {

    @Bean
    ApiDocumentation apiDocumentation(ObjectProvider<BearerApi> apis) {
        return new ApiDocumentation(apis.orderedStream().toList());
    }

    @Bean
    UndeclaredProblems undeclaredProblems(ApiDocumentation documentation, ObjectProvider<SpringDocConfigProperties> springdoc) {
        SpringDocConfigProperties properties = springdoc.getIfAvailable(SpringDocConfigProperties::new);
        return new UndeclaredProblems(documentation, Objects.requireNonNullElse(properties.getPathsToMatch(), List.of()),
                Objects.requireNonNullElse(properties.getPathsToExclude(), List.of()));
    }
}
