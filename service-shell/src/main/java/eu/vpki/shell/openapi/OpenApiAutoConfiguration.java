package eu.vpki.shell.openapi;

import eu.vpki.shell.security.BearerApi;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/**
 * In a service with springdoc on its class path (RCA, Operator), adds the shell's part of the
 * generated OpenAPI description: problems and bearer security ({@link ApiDocumentation}).
 */
@AutoConfiguration
@ConditionalOnClass(OpenApiCustomizer.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class OpenApiAutoConfiguration {

    @Bean
    ApiDocumentation apiDocumentation(ObjectProvider<BearerApi> apis) {
        return new ApiDocumentation(apis.orderedStream().toList());
    }
}
