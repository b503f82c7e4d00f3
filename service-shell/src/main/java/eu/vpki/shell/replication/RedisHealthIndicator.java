package eu.vpki.shell.replication;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

import java.net.URI;
import java.time.Duration;

/**
 * Whether this replica's own Redis answers a PING within {@code vpki.redis.health-timeout}, on a
 * connection of its own (a pool exhausted by requests does not make the check fail). A replica
 * whose Redis is gone cannot apply the group's commands: OUT_OF_SERVICE. A Redis that answers, but slower than
 * {@code vpki.redis.slow-threshold} (an AOF rewrite, a slow disk), is slow, not lost: UP, with {@code slow: true} and
 * the time it took in the details.
 */
public final class RedisHealthIndicator implements HealthIndicator {
    private final URI url;
    private final int connectTimeoutMillis;
    private final int timeoutMillis;
    private final long slowMillis;

    public RedisHealthIndicator(URI url, Duration connectTimeout, Duration timeout, Duration slowThreshold) {
        this.url = url;
        this.connectTimeoutMillis = (int) connectTimeout.toMillis();
        this.timeoutMillis = (int) timeout.toMillis();
        this.slowMillis = slowThreshold.toMillis();
    }

    @Override
    public Health health() {
        long start = System.nanoTime();
        try (Jedis jedis = new Jedis(url, DefaultJedisClientConfig.builder().connectionTimeoutMillis(connectTimeoutMillis)
                .socketTimeoutMillis(timeoutMillis).build())) {
            String pong = jedis.ping();
            long millis = (System.nanoTime() - start) / 1_000_000;
            Health.Builder up = Health.up().withDetail("pingMillis", millis).withDetail("answer", pong).withDetail("slow",
                    millis > slowMillis);
            if (millis > slowMillis) {
                up.withDetail("detail", "slow: PING took " + millis + " ms, more than " + slowMillis + " ms (an AOF rewrite or a slow"
                        + " disk?); not lost while it answers within " + timeoutMillis + " ms");
            }
            return up.build();
        } catch (JedisException e) {
            return Health.outOfService().withDetail("detail", "no answer from " + url.getHost() + ":" + url.getPort()
                    + " within " + timeoutMillis + " ms: " + e.getMessage()).build();
        }
    }
}
