package eu.vpki.testbed;

import eu.vpki.common.redis.RedisServer;
import eu.vpki.common.replication.RedisStateMachine;
import eu.vpki.common.replication.ReplicatedKeyspace;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
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
    private final Path clockFile;
    private volatile RedisServer redis;
    private volatile ServiceProcess jvm;
    private JedisPool pool;

    ReplicaNode(String name, Kind kind, Host host, URI url, Path redisBinary, RedisServer redis, Path clockFile,
                Supplier<ServiceProcess> launcher) {
        this.name = name;
        this.clockFile = clockFile;
        if (clockFile != null) {
            setClockOffset(Duration.ZERO);
        }
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

    /**
     * The environment that makes a JVM read its wall clock through libfaketime, offset by what {@code clockFile}
     * says ({@code +0}, {@code +240}, {@code -120}: seconds), re-read at most a second after it changed. The
     * monotonic clock moves with it: libfaketime's {@code FAKETIME_DONT_FAKE_MONOTONIC=1}, which would keep it
     * real as an NTP step does, made a JVM spend about 9 times the CPU (a Spring Boot service then did not
     * start within 3 minutes on the 2-core machine; measured 2026-11-29, docs/reliability.md). A constant
     * offset changes no interval; a step moves the monotonic clock too (timed waits end early or late once).
     */
    static Map<String, String> faketimeEnvironment(Path library, Path clockFile) {
        if (!Files.isRegularFile(library)) {
            throw new IllegalArgumentException("no libfaketime at " + library + " (Debian: apt-get install faketime)");
        }
        return Map.of("LD_PRELOAD", library.toString(), "FAKETIME_TIMESTAMP_FILE", clockFile.toString(), "FAKETIME_CACHE_DURATION", "1",
                "FAKETIME_DONT_RESET", "1");
    }

    /** Whether this replica's JVM runs with libfaketime (its clock can be set). */
    public boolean clockControllable() {
        return clockFile != null;
    }

    /**
     * Sets this replica's wall clock {@code offset} ahead (negative: behind) of the real one: at its next start,
     * and within about a second while it runs (a step).
     *
     * @throws IllegalStateException if the cluster was not started with libfaketime ({@link ClusterSpec#faketime})
     */
    public void setClockOffset(Duration offset) {
        if (clockFile == null) {
            throw new IllegalStateException(name + " runs with the real clock (the cluster was started without libfaketime)");
        }
        long seconds = offset.toSeconds();
        try {
            Files.createDirectories(clockFile.getParent());
            Path tmp = clockFile.resolveSibling(clockFile.getFileName() + ".tmp");
            Files.writeString(tmp, (seconds >= 0 ? "+" : "") + seconds + "\n");
            Files.move(tmp, clockFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set the clock of " + name, e);
        }
    }

    /**
     * Kills the redis-server (if running) and deletes everything in its data directory: the replica's
     * disk is gone, as when a host is replaced (its log too). Start it with {@link #startRedis}.
     */
    public synchronized void wipeRedis() {
        if (redis.isRunning()) {
            redis.kill();
        }
        Path dir = redis.options().dataDir();
        if (dir == null) {
            throw new IllegalStateException("the redis-server of " + name + " has no data directory of its own");
        }
        try (var files = Files.walk(dir)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                if (!f.equals(dir)) {
                    Files.deleteIfExists(f);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot wipe " + dir, e);
        }
    }

    /**
     * The append-only file Redis writes its latest commands to: {@code appendonly.aof} (Redis 6) or the newest
     * {@code appendonlydir/*.incr.aof} (Redis 7); null if there is none.
     */
    public Path appendOnlyFile() {
        Path dir = redis.options().dataDir();
        if (dir == null) {
            return null;
        }
        Path single = dir.resolve("appendonly.aof");
        if (Files.isRegularFile(single)) {
            return single;
        }
        Path multi = dir.resolve("appendonlydir");
        if (!Files.isDirectory(multi)) {
            return null;
        }
        try (var files = Files.list(multi)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".incr.aof"))
                    .max(java.util.Comparator.comparingLong(ReplicaNode::incrNumber)).orElse(null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + multi, e);
        }
    }

    private static long incrNumber(Path incr) {
        String[] parts = incr.getFileName().toString().split("\\.");
        try {
            return Long.parseLong(parts[parts.length - 3]);
        } catch (RuntimeException e) {
            return -1;
        }
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
