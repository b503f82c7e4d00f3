package eu.vpki.shell.security;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * {@code vpki.security.failed-attempts.*}: how many unknown bearer tokens one client may present per
 * window before its calls to a bearer-token API are refused with 429 until the window ends, and how
 * many clients are tracked at most (docs/configuration.md).
 */
@Validated
@ConfigurationProperties("vpki.security.failed-attempts")
public record FailedAttemptsProperties(
                                       @DefaultValue("10") @Min(1) @Max(1_000_000) int maxFailures,
                                       @DefaultValue("1m") Duration window,
                                       @DefaultValue("100000") @Min(1) @Max(10_000_000) int maxClients) {
}
