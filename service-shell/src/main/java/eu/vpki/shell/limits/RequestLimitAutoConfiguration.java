package eu.vpki.shell.limits;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * Puts {@link RequestBodyLimitFilter} first in every service's filter chain (before Spring
 * Security, so an oversize declared body is refused before the caller is even authenticated), with
 * the services' {@link RequestBodyLimit} beans and {@code vpki.http.max-request-bytes} for the rest.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(RequestLimitProperties.class)
public class RequestLimitAutoConfiguration {
    @Bean
    FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(ObjectProvider<RequestBodyLimit> limits,
                                                                          RequestLimitProperties properties) {
        FilterRegistrationBean<RequestBodyLimitFilter> registration = new FilterRegistrationBean<>(
                new RequestBodyLimitFilter(limits.orderedStream().toList(), properties.maxRequestBytes()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        registration.addUrlPatterns("/*");
        return registration;
    }
}
