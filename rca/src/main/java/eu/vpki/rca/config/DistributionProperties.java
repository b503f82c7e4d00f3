package eu.vpki.rca.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.util.List;

/** {@code vpki.dc.urls}: the DC base URLs the RCA lists in its CTL and publishes to. */
@Validated
@ConfigurationProperties("vpki.dc")
public record DistributionProperties(@DefaultValue List<String> urls) {
}
