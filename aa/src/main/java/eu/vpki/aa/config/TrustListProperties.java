package eu.vpki.aa.config;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code vpki.rca.certificate-file} and {@code vpki.dc.*}: the RCA the AA trusts and the DCs it
 * fetches the CTL and CRL from (checked every {@code check-interval}, fetched when older than
 * {@code max-age} or within {@code next-update-margin} of their nextUpdate).
 */
@Validated
@ConfigurationProperties("vpki")
public record TrustListProperties(@DefaultValue @NotNull Rca rca, @DefaultValue @NotNull Dc dc) {
    public record Rca(Path certificateFile) {
    }

    public record Dc(@NotEmpty List<URI> urls,
                     @DefaultValue("30s") Duration checkInterval,
                     @DefaultValue("15m") Duration maxAge,
                     @DefaultValue("1h") Duration nextUpdateMargin,
                     @DefaultValue("5s") Duration connectTimeout,
                     @DefaultValue("10s") Duration requestTimeout) {
        public Dc {
            urls = urls == null ? List.of() : List.copyOf(urls);
        }
    }
}
