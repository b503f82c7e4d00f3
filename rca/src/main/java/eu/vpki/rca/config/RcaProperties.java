package eu.vpki.rca.config;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code vpki.rca.*}: the Root CA's own settings (see docs/configuration.md). Name, curve and
 * validity apply at first start only; later starts reuse the stored root.
 */
@Validated
@ConfigurationProperties("vpki.rca")
public record RcaProperties(
                            @DefaultValue("vpki Root CA") @NotBlank @Size(max = 255) String name,
                            @DefaultValue("brainpoolP256r1") @NotBlank String curve,
                            @DefaultValue("10") @Min(1) @Max(100) int validityYears,
                            @DefaultValue("./data/rca") @NotNull Path dataDir,
                            @DefaultValue("P7D") @NotNull Duration ctlValidity,
                            @DefaultValue("P7D") @NotNull Duration crlValidity,
                            @DefaultValue("0.5") @DecimalMin(value = "0.0", inclusive = false) @DecimalMax(value = "1.0", inclusive = false) double renewalFraction,
                            @DefaultValue("PT1M") @NotNull Duration renewalCheckInterval,
                            @DefaultValue("1095") @Min(1) @Max(2730) int authorityValidityDays,
                            @DefaultValue("PT10S") @NotNull Duration publishTimeout) {
}
