package eu.vpki.operator.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.net.URI;

/** {@code vpki.redis.url}: this replica's own Redis. */
@ConfigurationProperties("vpki.redis")
public record RedisProperties(@DefaultValue("redis://127.0.0.1:6379") URI url) {
}
