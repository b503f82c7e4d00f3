package eu.vpki.common.redis;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} child process on loopback: started, checked to answer PING, stopped or
 * killed. Used by the test fixture and by the local cluster. Every process still running when the
 * JVM exits is killed by a shutdown hook, so no orphan server is left behind.
 */
public final class RedisServer implements AutoCloseable {
    private static final String HOST = "127.0.0.1";
    private static final int START_ATTEMPTS = 3;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly), "vpki-redis-reaper"));
    }

    /**
     * How to run the server.
     *
     * @param port       0 for a free port
     * @param dataDir    where Redis keeps its files; null for a temporary directory deleted on stop
     * @param appendOnly whether to persist with an append-only file (fsync every second)
     */
    public record Options(int port, Path dataDir, boolean appendOnly) {
        public static Options ephemeral() {
            return new Options(0, null, false);
        }
    }

    private final Process process;
    private final int port;
    private final Path directory;
    private final boolean temporary;

    private RedisServer(Process process, int port, Path directory, boolean temporary) {
        this.process = process;
        this.port = port;
        this.directory = directory;
        this.temporary = temporary;
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
        Process process;
        try {
            directory = options.dataDir() == null ? Files.createTempDirectory("vpki-redis-" + port + "-")
                    : Files.createDirectories(options.dataDir());
            File log = directory.resolve("redis.log").toFile();
            List<String> command = new ArrayList<>(List.of(binary.toString(),
                    "--port", Integer.toString(port), "--bind", HOST, "--protected-mode", "no",
                    "--save", "", "--daemonize", "no", "--dir", directory.toString()));
            command.addAll(options.appendOnly() ? List.of("--appendonly", "yes", "--appendfsync", "everysec")
                    : List.of("--appendonly", "no"));
            process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + binary, e);
        }
        RUNNING.add(process);
        RedisServer server = new RedisServer(process, port, directory, options.dataDir() == null);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!server.answersPing()) {
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

    private boolean answersPing() {
        try (Jedis jedis = new Jedis(HOST, port, 1_000)) {
            return "PONG".equals(jedis.ping());
        } catch (JedisException e) {
            return false;
        }
    }

    public String host() {
        return HOST;
    }

    public int port() {
        return port;
    }

    public String url() {
        return "redis://" + HOST + ":" + port;
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
        process.destroyForcibly();
        awaitExit();
    }

    /** SIGTERM, then SIGKILL if it has not exited in time. */
    public void stop() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        awaitExit();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            stop();
        }
    }

    private void awaitExit() {
        try {
            process.onExit().get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IllegalStateException("redis-server on port " + port + " did not exit", e);
        } finally {
            RUNNING.remove(process);
            if (temporary) {
                deleteDirectory();
            }
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
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + HOST, e);
        }
    }
}
