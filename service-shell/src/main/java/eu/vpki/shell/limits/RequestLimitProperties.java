package eu.vpki.shell.limits;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code vpki.http.max-request-bytes}: the body limit of every path no service's
 * {@link RequestBodyLimit} names (RCA admin API, DC downloads, unknown paths).
 */
@Validated
@ConfigurationProperties("vpki.http")
public record RequestLimitProperties(@DefaultValue("65536") @Min(1) @Max(1L << 30) long maxRequestBytes) {
}
