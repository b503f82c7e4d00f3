package eu.vpki.operator.config;

import eu.vpki.operator.core.OperatorSettings;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import java.nio.file.Path;
import java.time.Duration;

/** {@code vpki.operator.*}: credentials file, batch limit, request body limit, read-your-writes wait, replication timeout. */
@Validated
@ConfigurationProperties("vpki.operator")
public record OperatorProperties(
                                 @NotNull Path credentialsFile,
                                 @DefaultValue("1000") @Min(1) int maxBatch,
                                 @DefaultValue("2MB") @NotNull DataSize maxRequestBytes,
                                 @DefaultValue("2s") Duration readWait,
                                 @DefaultValue("10s") Duration replicationTimeout) {

    public OperatorSettings toSettings() {
        return new OperatorSettings(maxBatch, readWait, replicationTimeout);
    }
}
