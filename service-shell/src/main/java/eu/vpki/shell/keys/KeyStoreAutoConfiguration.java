package eu.vpki.shell.keys;

import eu.vpki.common.etsi.crypto.SoftwareKeyStore;
import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Token;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;

import java.security.SecureRandom;
import java.time.Clock;

/**
 * The authority's keys, per {@code vpki.keystore.backend}: the PKCS#12 key store (default), opened
 * once per process (opening one costs about 2 s with BouncyCastle) and only by services that use it
 * (the beans are lazy: the DC and the Operator never open one; a missing store file is created empty),
 * or a PKCS#11 token ({@code pkcs11}), logged in at start-up with its health indicator.
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

    @Bean(destroyMethod = "close")
    @Lazy
    @ConditionalOnProperty(name = "vpki.keystore.backend", havingValue = "pkcs11")
    @ConditionalOnMissingBean(Pkcs11Token.class)
    Pkcs11Token pkcs11Token(KeyStoreProperties keyStore, Clock clock, SecureRandom random) {
        return Pkcs11Token.open(keyStore.pkcs11().settings(System.getenv()), clock, random);
    }

    @Bean
    @ConditionalOnProperty(name = "vpki.keystore.backend", havingValue = "pkcs11")
    Pkcs11HealthIndicator pkcs11HealthIndicator(Pkcs11Token token) {
        return new Pkcs11HealthIndicator(token);
    }

    @Bean
    @Lazy
    @ConditionalOnMissingBean(AuthorityKeySource.class)
    AuthorityKeySource authorityKeySource(KeyStoreProperties keyStore, ObjectProvider<SoftwareKeyStore> software,
                                          ObjectProvider<Pkcs11Token> token, SecureRandom random) {
        return switch (keyStore.backend()) {
            case SOFTWARE -> new SoftwareKeySource(software.getObject(), random);
            case PKCS11 -> new Pkcs11KeySource(token.getObject());
        };
    }
}
