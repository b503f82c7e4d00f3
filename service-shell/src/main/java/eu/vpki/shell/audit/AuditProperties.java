package eu.vpki.shell.audit;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import java.nio.file.Path;

/**
 * {@code vpki.audit.*}: where and how the authority's audit events are written.
 *
 * @param dir         directory of the audit files
 * @param authority   the authority's name in the logger ({@code eu.vpki.audit.<authority>}) and the file name;
 *                    default {@code spring.application.name} without {@code vpki-}
 * @param instance    file name part that keeps processes sharing {@code dir} apart; default host name and process id
 * @param maxFileSize a file is rolled when it reaches this size (and at midnight UTC)
 * @param maxHistory  days of rolled files kept; 0 keeps them all (archiving them is the operator's job)
 * @param format      {@code text} (one line: time, event, key=value pairs) or a structured JSON format
 *                    Spring Boot knows: {@code ecs}, {@code logstash}, {@code gelf}
 */
@Validated
@ConfigurationProperties("vpki.audit")
public record AuditProperties(@DefaultValue("./data/audit") @NotNull Path dir,
                              @Pattern(regexp = "[A-Za-z0-9._-]{1,64}") String authority,
                              @Pattern(regexp = "[A-Za-z0-9._-]{1,64}") String instance,
                              @DefaultValue("64MB") @NotNull DataSize maxFileSize,
                              @DefaultValue("0") @Min(0) int maxHistory,
                              @DefaultValue("text") @NotNull Format format) {
    /** How an event is written. */
    public enum Format {
        TEXT, ECS, LOGSTASH, GELF;

        /** The Spring Boot structured-logging format name, or null for {@link #TEXT}. */
        String structured() {
            return this == TEXT ? null : name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public AuditProperties {
        if (maxFileSize != null && maxFileSize.toBytes() < 1024) {
            throw new IllegalArgumentException("vpki.audit.max-file-size must be at least 1KB, got " + maxFileSize);
        }
    }
}
