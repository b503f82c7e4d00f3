package eu.vpki.common.testing;

import eu.vpki.common.redis.RedisServerBinary;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A running, real Redis server for tests. Start one with {@link #start()}; close it (or call
 * {@link #stop()}) when done. Every instance is a separate server with its own data set.
 *
 * <p>Backend choice, in this order:
 * <ol>
 *   <li>{@code VPKI_REDIS_SERVER} (environment variable, or system property {@code vpki.redis.server})
 *       names a {@code redis-server} binary: a process of that binary;</li>
 *   <li>a {@code redis-server} on {@code PATH}: a process of it (the Docker engine is then not asked at all: its
 *       probe, and a container per server, cost seconds to minutes where an engine runs without a registry);</li>
 *   <li>a Docker engine is reachable ({@link DockerEngine#isReachable()}): a {@code redis:7} container;</li>
 *   <li>otherwise a process of the embedded binary (see {@link RedisServerBinary}).</li>
 * </ol>
 */
public interface RedisFixture extends AutoCloseable {

    /** Starts a new Redis server and returns once it answers PING. */
    static RedisFixture start() {
        Optional<Path> installed = RedisServerBinary.explicitOverride().or(RedisServerBinary::onPath);
        if (installed.isPresent()) {
            return RedisServerProcess.start(installed.get());
        }
        if (DockerEngine.isReachable()) {
            return DockerRedis.start();
        }
        return RedisServerProcess.start(RedisServerBinary.locate());
    }

    String host();

    int port();

    /** The {@code redis://host:port} URL of this server, as used by {@code vpki.redis.url}. */
    default String url() {
        return "redis://" + host() + ":" + port();
    }

    /** A new pool connected to this server; the caller closes it. */
    default JedisPool newPool() {
        JedisPoolConfig config = new JedisPoolConfig();
        config.setMaxTotal(16);
        config.setJmxEnabled(false);
        return new JedisPool(config, host(), port(), 5_000);
    }

    /** A new single connection to this server; the caller closes it. */
    default Jedis connect() {
        return new Jedis(host(), port(), 5_000);
    }

    /** Removes every key of every database. */
    default void flushAll() {
        try (Jedis jedis = connect()) {
            jedis.flushAll();
        }
    }

    /** Whether the server is still running. */
    boolean isRunning();

    /** Kills the server abruptly (SIGKILL for a process, {@code docker kill} for a container): a crash. */
    void kill();

    /** Stops the server gracefully and waits until it is gone. Idempotent. */
    void stop();

    @Override
    default void close() {
        stop();
    }
}
