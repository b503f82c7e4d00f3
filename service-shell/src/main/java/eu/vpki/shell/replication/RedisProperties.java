package eu.vpki.shell.replication;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.net.URI;
import java.time.Duration;

/**
 * {@code vpki.redis.*}: this replica's own Redis.
 *
 * @param url            {@code redis://host:port} (user and password in the URL if Redis asks for them; {@code rediss://} for TLS)
 * @param maxConnections pooled connections (request threads reading the state, the applier writing it)
 * @param healthTimeout  how long the health check waits for a PING before reporting Redis lost
 */
@Validated
@ConfigurationProperties("vpki.redis")
public record RedisProperties(@DefaultValue("redis://127.0.0.1:6379") @NotNull URI url,
                              @DefaultValue("64") @Min(1) @Max(4096) int maxConnections,
                              @DefaultValue("1s") @NotNull Duration healthTimeout) {
    public RedisProperties {
        if (!("redis".equals(url.getScheme()) || "rediss".equals(url.getScheme())) || url.getHost() == null) {
            throw new IllegalArgumentException("vpki.redis.url must be redis://host:port (or rediss://), got " + url);
        }
        if (healthTimeout.isNegative() || healthTimeout.isZero() || healthTimeout.compareTo(Duration.ofSeconds(30)) > 0) {
            throw new IllegalArgumentException("vpki.redis.health-timeout must be between 1 ms and 30 s, got " + healthTimeout);
        }
    }
}
