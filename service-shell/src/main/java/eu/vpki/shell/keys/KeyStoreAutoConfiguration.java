package eu.vpki.shell.keys;

import eu.vpki.common.etsi.crypto.SoftwareKeyStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;

/**
 * The authority's key store, opened once per process (opening a PKCS#12 store costs about 2 s with
 * BouncyCastle) and only by services that use it (the bean is lazy: the DC and the Operator never
 * open one). A missing store file is created empty.
 */
@AutoConfiguration
@EnableConfigurationProperties(KeyStoreProperties.class)
public class KeyStoreAutoConfiguration {
    @Bean
    @Lazy
    @ConditionalOnMissingBean(SoftwareKeyStore.class)
    SoftwareKeyStore softwareKeyStore(KeyStoreProperties keyStore, Environment environment) {
        String service = environment.getProperty("spring.application.name", "vpki").replaceFirst("^vpki-", "");
        return SoftwareKeyStore.openOrCreate(keyStore.pathFor(service),
                SoftwareKeyStore.password(keyStore.passwordFile(), System.getenv(), KeyStoreProperties.PASSWORD_ENV));
    }
}
