package eu.vpki.shell.replication;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

import java.net.URI;
import java.time.Duration;

/**
 * Whether this replica's own Redis answers a PING within {@code vpki.redis.health-timeout}, on a
 * connection of its own (a pool exhausted by requests does not make the check fail). A replica
 * whose Redis is gone cannot apply the group's commands: OUT_OF_SERVICE.
 */
public final class RedisHealthIndicator implements HealthIndicator {
    private final URI url;
    private final int timeoutMillis;

    public RedisHealthIndicator(URI url, Duration timeout) {
        this.url = url;
        this.timeoutMillis = (int) timeout.toMillis();
    }

    @Override
    public Health health() {
        long start = System.nanoTime();
        try (Jedis jedis = new Jedis(url, timeoutMillis)) {
            String pong = jedis.ping();
            return Health.up().withDetail("pingMillis", (System.nanoTime() - start) / 1_000_000).withDetail("answer", pong).build();
        } catch (JedisException e) {
            return Health.outOfService().withDetail("detail", "no answer from " + url.getHost() + ":" + url.getPort()
                    + " within " + timeoutMillis + " ms: " + e.getMessage()).build();
        }
    }
}
