package eu.vpki.testbed;

import eu.vpki.common.redis.RedisServer;
import eu.vpki.common.replication.RedisStateMachine;
import eu.vpki.common.replication.ReplicatedKeyspace;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * One member of the replication group (an EA or Operator replica) with its own redis-server, on its
 * own {@link Host}, and the controls a fault harness needs: kill (SIGKILL) or stop (SIGTERM) the
 * JVM, start it again with the same replica id, configuration and Redis, pause and resume it, kill
 * its redis-server and start it again on the same port and data directory (it reloads its
 * append-only file). Reading its Redis goes through {@link #stateMachine}, the replication
 * library's own view of the keyspace.
 */
public final class ReplicaNode {
    /** Which service the replica is. */
    public enum Kind { EA, OPERATOR }

    private final String name;
    private final Kind kind;
    private final Host host;
    private final URI url;
    private final Path redisBinary;
    private final Supplier<ServiceProcess> launcher;
    private volatile RedisServer redis;
    private volatile ServiceProcess jvm;
    private JedisPool pool;

    ReplicaNode(String name, Kind kind, Host host, URI url, Path redisBinary, RedisServer redis, Supplier<ServiceProcess> launcher) {
        this.name = name;
        this.kind = kind;
        this.host = host;
        this.url = url;
        this.redisBinary = redisBinary;
        this.redis = redis;
        this.launcher = launcher;
    }

    /** The replica id (also the origin of its commands), e.g. {@code ea-1}. */
    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    public Host host() {
        return host;
    }

    /** Its HTTP base URL. */
    public URI url() {
        return url;
    }

    public String redisUrl() {
        return redis.url();
    }

    /** The current JVM (a new object after each start); null before the first start. */
    public ServiceProcess jvm() {
        return jvm;
    }

    public RedisServer redis() {
        return redis;
    }

    public boolean jvmRunning() {
        ServiceProcess p = jvm;
        return p != null && p.isAlive();
    }

    /** Starts the JVM (same replica id, configuration and Redis as before); does not wait for it. */
    public synchronized ServiceProcess startJvm() {
        if (jvmRunning()) {
            throw new IllegalStateException(name + " is already running (pid " + jvm.pid() + ")");
        }
        jvm = launcher.get();
        return jvm;
    }

    /** SIGKILL of the JVM, as a crash. */
    public void killJvm() {
        jvm.kill();
    }

    /** SIGTERM and wait (graceful shutdown; killed if it does not end in time). */
    public void stopJvm() {
        jvm.close();
    }

    public void pauseJvm() {
        jvm.pause();
    }

    public void resumeJvm() {
        jvm.resume();
    }

    /** Until it serves: health UP (in a majority view, with its Redis). */
    public ServiceProcess awaitHealthy(HttpClient http, Duration timeout) {
        return jvm.awaitHealthy(http, timeout);
    }

    /** Until it has joined (or formed) its group, serving or not. */
    public ServiceProcess awaitConnected(HttpClient http, Duration timeout) {
        return jvm.awaitConnected(http, timeout);
    }

    /** SIGKILL of the redis-server: what it had not yet written to its append-only file is gone. */
    public void killRedis() {
        redis.kill();
    }

    public boolean redisRunning() {
        return redis.isRunning();
    }

    /** Starts the redis-server again on its port and data directory; it reloads its append-only file. */
    public synchronized void startRedis() {
        if (redis.isRunning()) {
            throw new IllegalStateException("the redis-server of " + name + " is already running");
        }
        redis = RedisServer.start(redisBinary, redis.options());
    }

    /** The replication library's view of this replica's Redis (digest, contents, applied table). */
    public synchronized RedisStateMachine stateMachine(ReplicatedKeyspace keyspace) {
        if (pool == null) {
            JedisPoolConfig config = new JedisPoolConfig();
            config.setMaxTotal(4);
            config.setTestOnBorrow(true);
            pool = new JedisPool(config, redis.host(), redis.port(), 5_000, redis.options().password());
        }
        return new RedisStateMachine(pool, keyspace);
    }

    /** Stops the JVM, then the redis-server. */
    synchronized void close() {
        if (jvm != null) {
            try {
                jvm.close();
            } catch (RuntimeException e) {
                jvm.kill();
            }
        }
        if (pool != null) {
            pool.close();
        }
        redis.close();
    }
}
