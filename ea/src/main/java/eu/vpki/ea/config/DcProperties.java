package eu.vpki.ea.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * {@code vpki.dc.*}: the Distribution Centres the EA fetches the RCA's CTL and CRL from (the AAs it
 * accepts validation requests from), and how often it checks whether a refresh is due.
 */
@ConfigurationProperties("vpki.dc")
public record DcProperties(List<URI> urls, @DefaultValue("1m") Duration refreshInterval) {
    public DcProperties {
        urls = urls == null ? List.of() : List.copyOf(urls);
        if (refreshInterval == null || refreshInterval.isNegative() || refreshInterval.isZero()) {
            throw new IllegalArgumentException("vpki.dc.refresh-interval must be positive");
        }
    }
}
