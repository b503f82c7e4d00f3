package eu.vpki.shell.tls;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;

/** The service's {@link ClientTls} from {@code vpki.tls.client-bundle}. */
@AutoConfiguration
@EnableConfigurationProperties(ClientTlsProperties.class)
public class ClientTlsAutoConfiguration {
    private static final Logger log = LoggerFactory.getLogger(ClientTlsAutoConfiguration.class);

    @Bean
    @ConditionalOnMissingBean
    ClientTls clientTls(ClientTlsProperties properties, ObjectProvider<SslBundles> bundles) {
        if (properties.clientBundle() == null || properties.clientBundle().isBlank()) {
            return ClientTls.jdkDefaults();
        }
        ClientTls tls = ClientTls.of(bundles.getObject(), properties.clientBundle());
        log.info("https calls to other services trust {}", tls);
        return tls;
    }
}
