package eu.vpki.shell;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import java.security.SecureRandom;
import java.time.Clock;

/**
 * What every core takes through its constructor besides its keys: the clock (UTC system clock) and
 * the randomness (one {@link SecureRandom}). A test or an embedding registers its own to replace them.
 */
@AutoConfiguration
public class CoreInputsAutoConfiguration {
    @Bean
    @ConditionalOnMissingBean(Clock.class)
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    @ConditionalOnMissingBean(SecureRandom.class)
    SecureRandom secureRandom() {
        return new SecureRandom();
    }
}
