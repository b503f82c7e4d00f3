package eu.vpki.ea.config;

import eu.vpki.ea.core.EaSettings;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code vpki.ea.*}: the EA certificate, key aliases in the key store, the CTL file, request limits,
 * how far an EC's validity starts before its issuance, how many EC and station records validations keep
 * ({@code ec-cache-entries}, 0: read Redis on every request).
 */
@Validated
@ConfigurationProperties("vpki.ea")
public record EaProperties(
                           @NotNull Path certificateFile,
                           @DefaultValue("ea-signing") @NotBlank String signingKeyAlias,
                           @DefaultValue("ea-encryption") @NotBlank String encryptionKeyAlias,
                           Path ctlFile,
                           @DefaultValue("5m") Duration requestWindow,
                           @DefaultValue("30s") Duration clockSkew,
                           @DefaultValue("1000000") @Min(1) int replayCacheEntries,
                           @DefaultValue("10s") Duration replicationTimeout,
                           @DefaultValue("65536") @Min(256) int maxRequestBytes,
                           @DefaultValue("5m") Duration ecBackdate,
                           @DefaultValue("4096") @Min(0) int ecCacheEntries) {

    public EaSettings toSettings() {
        return new EaSettings(requestWindow, clockSkew, replicationTimeout, ecBackdate);
    }
}
