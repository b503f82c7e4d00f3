package eu.vpki.common.redis;

import eu.vpki.common.process.ChildProcess;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} child process: started, checked to answer PING, stopped or killed. Used by
 * the test fixture and by the local cluster. By default on loopback; the local cluster's fault
 * harness runs it on another address inside a network namespace (a launch prefix such as
 * {@code ip netns exec NS}) and restarts it on the same port and data directory after a kill, so
 * that it reloads its append-only file. Every process still running when the JVM exits is killed
 * ({@link ChildProcess}'s shutdown hook), so no orphan server is left behind.
 */
public final class RedisServer implements AutoCloseable {
    private static final String LOOPBACK = "127.0.0.1";
    /** The {@code appendfsync} policies Redis knows. */
    public static final List<String> APPEND_FSYNC_POLICIES = List.of("always", "everysec", "no");
    private static final int START_ATTEMPTS = 3;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    /**
     * How to run the server.
     *
     * @param port         0 for a free port (loopback without launch prefix only)
     * @param dataDir      where Redis keeps its files; null for a temporary directory deleted on stop
     * @param appendOnly   whether to persist with an append-only file
     * @param appendFsync  {@code appendfsync} of the append-only file: always, everysec or no
     * @param bindAddress  the address it listens on (and is reached at)
     * @param launchPrefix words run before the server's command, e.g. {@code ip netns exec NS}; they
     *                     must end by exec'ing it, so that the process is the server itself
     * @param password     {@code null}, or the password clients must AUTH with ({@code requirepass}, written to a
     *                     configuration file of mode 0600 in the data directory, never on the command line), with
     *                     protected mode on
     * @param maxMemory    {@code maxmemory} in bytes, 0 for none; the server always runs with {@code maxmemory-policy
     *                     noeviction}: at the limit it refuses writes ({@code OOM command not allowed}) and never drops a
     *                     key of the replicated state
     */
    public record Options(int port, Path dataDir, boolean appendOnly, String appendFsync, String bindAddress,
                          List<String> launchPrefix, String password, long maxMemory) {
        public Options {
            if (maxMemory < 0) {
                throw new IllegalArgumentException("maxmemory is 0 (none) or a number of bytes, not " + maxMemory);
            }
            if (password != null && (password.isEmpty() || password.chars().anyMatch(c -> c <= ' ' || c == '"' || c == '\\'))) {
                throw new IllegalArgumentException("a redis password is non-empty printable ASCII without spaces, quotes or backslashes");
            }
            if (!APPEND_FSYNC_POLICIES.contains(appendFsync)) {
                throw new IllegalArgumentException("appendfsync must be one of " + APPEND_FSYNC_POLICIES + ", not " + appendFsync);
            }
            launchPrefix = List.copyOf(launchPrefix);
            if (port == 0 && (!launchPrefix.isEmpty() || !LOOPBACK.equals(bindAddress))) {
                throw new IllegalArgumentException("a free port is only probed on loopback without a launch prefix: give a port");
            }
        }

        /** Without a memory limit. */
        public Options(int port, Path dataDir, boolean appendOnly, String appendFsync, String bindAddress, List<String> launchPrefix,
                       String password) {
            this(port, dataDir, appendOnly, appendFsync, bindAddress, launchPrefix, password, 0);
        }

        /** Without a password. */
        public Options(int port, Path dataDir, boolean appendOnly, String appendFsync, String bindAddress, List<String> launchPrefix) {
            this(port, dataDir, appendOnly, appendFsync, bindAddress, launchPrefix, null);
        }

        /** On loopback, fsync every second when persistent. */
        public Options(int port, Path dataDir, boolean appendOnly) {
            this(port, dataDir, appendOnly, "everysec", LOOPBACK, List.of());
        }

        public static Options ephemeral() {
            return new Options(0, null, false);
        }

        /** The same options on a fixed port (to restart a server where it was). */
        public Options onPort(int fixedPort) {
            return new Options(fixedPort, dataDir, appendOnly, appendFsync, bindAddress, launchPrefix, password, maxMemory);
        }

        /** The same options, clients having to AUTH with {@code password}. */
        public Options withPassword(String password) {
            return new Options(port, dataDir, appendOnly, appendFsync, bindAddress, launchPrefix, password, maxMemory);
        }

        /** The same options with {@code maxmemory} {@code bytes} (0: none). */
        public Options withMaxMemory(long bytes) {
            return new Options(port, dataDir, appendOnly, appendFsync, bindAddress, launchPrefix, password, bytes);
        }
    }

    private final ChildProcess process;
    private final String host;
    private final int port;
    private final Path directory;
    private final boolean temporary;
    private final Options options;

    private RedisServer(ChildProcess process, Options options, int port, Path directory, boolean temporary) {
        this.process = process;
        this.host = options.bindAddress();
        this.port = port;
        this.directory = directory;
        this.temporary = temporary;
        this.options = options.onPort(port);
    }

    /** Starts a server and returns once it answers PING. */
    public static RedisServer start(Path binary, Options options) {
        IllegalStateException failure = null;
        for (int attempt = 0; attempt < (options.port() == 0 ? START_ATTEMPTS : 1); attempt++) {
            try {
                return startOnce(binary, options.port() == 0 ? freePort() : options.port(), options);
            } catch (IllegalStateException e) {
                // a probed free port may be taken before redis binds it: try another one
                failure = e;
            }
        }
        throw failure;
    }

    private static RedisServer startOnce(Path binary, int port, Options options) {
        Path directory;
        ChildProcess process;
        try {
            directory = options.dataDir() == null
                    ? Files.createTempDirectory("vpki-redis-" + port + "-")
                    : Files.createDirectories(options.dataDir());
            File log = directory.resolve("redis.log").toFile();
            List<String> command = new ArrayList<>(options.launchPrefix());
            command.add(binary.toString());
            if (options.password() != null) {
                // the password in a file only the owner reads, not on the command line (ps shows that to every user)
                Path auth = directory.resolve("redis-auth.conf");
                Files.deleteIfExists(auth);
                Files.createFile(auth, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.writeString(auth, "requirepass \"" + options.password() + "\"\nprotected-mode yes\n");
                command.add(auth.toString());
            } else {
                command.addAll(List.of("--protected-mode", "no"));
            }
            command.addAll(List.of("--port", Integer.toString(port), "--bind", options.bindAddress(),
                    "--save", "", "--daemonize", "no", "--dir", directory.toString(),
                    "--maxmemory", Long.toString(options.maxMemory()), "--maxmemory-policy", "noeviction"));
            command.addAll(options.appendOnly()
                    ? List.of("--appendonly", "yes", "--appendfsync", options.appendFsync())
                    : List.of("--appendonly", "no"));
            process = ChildProcess.start(new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log)), "redis-server on port " + port, STOP_TIMEOUT, Duration.ZERO);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + binary, e);
        }
        RedisServer server = new RedisServer(process, options, port, directory, options.dataDir() == null);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        for (Ping ping = server.ping(); ping != Ping.PONG; ping = server.ping()) {
            if (ping == Ping.LOADING) {
                // loading its data set (a million stations' append-only file takes minutes on a busy machine): it is
                // starting, not stuck; the time limit counts from the moment it stops loading
                deadline = System.nanoTime() + START_TIMEOUT.toNanos();
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                String log = server.log();
                server.kill();
                throw new IllegalStateException("redis-server did not start on port " + port + ": " + log);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                server.kill();
                throw new IllegalStateException("interrupted while starting redis-server", e);
            }
        }
        return server;
    }

    /** A new connection to it, authenticated when it has a password; the caller closes it. */
    public Jedis connect(int timeoutMillis) {
        Jedis jedis = new Jedis(host, port, timeoutMillis);
        try {
            if (options.password() != null) {
                jedis.auth(options.password());
            }
            return jedis;
        } catch (JedisException e) {
            jedis.close();
            throw e;
        }
    }

    /** What a PING gets while a redis-server starts. */
    enum Ping { PONG, LOADING, NOTHING }

    private Ping ping() {
        try (Jedis jedis = connect(1_000)) {
            return "PONG".equals(jedis.ping()) ? Ping.PONG : Ping.NOTHING;
        } catch (redis.clients.jedis.exceptions.JedisDataException e) {
            return e.getMessage() != null && e.getMessage().startsWith("LOADING") ? Ping.LOADING : Ping.NOTHING;
        } catch (JedisException e) {
            return Ping.NOTHING;
        }
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /** {@code redis://host:port}, without the password (give that separately, {@link Options#password()}). */
    public String url() {
        return "redis://" + host + ":" + port;
    }

    /** The options it runs with, on the port it got (start them again to restart it where it was). */
    public Options options() {
        return options;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isRunning() {
        return process.isAlive();
    }

    /** The server's own log, for diagnostics. */
    public String log() {
        try {
            return Files.readString(directory.resolve("redis.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** SIGKILL, as a crash would. */
    public void kill() {
        try {
            process.kill();
        } finally {
            deleteIfTemporary();
        }
    }

    /** SIGTERM, then SIGKILL if it has not exited in time. */
    public void stop() {
        try {
            process.stop();
        } finally {
            deleteIfTemporary();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            stop();
        }
    }

    private void deleteIfTemporary() {
        if (temporary) {
            deleteDirectory();
        }
    }

    private void deleteDirectory() {
        try (var files = Files.walk(directory)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a leftover temporary directory is harmless
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + LOOPBACK, e);
        }
    }
}
