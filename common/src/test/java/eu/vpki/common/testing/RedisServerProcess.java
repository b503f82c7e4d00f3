package eu.vpki.common.testing;

import org.awaitility.core.ConditionTimeoutException;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A {@code redis-server} child process on a free loopback port, without persistence. Every
 * process still running when the JVM exits is killed by a shutdown hook, so a crashed test run
 * leaves no orphan servers behind.
 */
final class RedisServerProcess implements RedisFixture {

    private static final String HOST = "127.0.0.1";
    private static final int START_ATTEMPTS = 3;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> RUNNING.forEach(Process::destroyForcibly), "vpki-redis-reaper"));
    }

    private final Process process;
    private final int port;
    private final Path directory;

    private RedisServerProcess(Process process, int port, Path directory) {
        this.process = process;
        this.port = port;
        this.directory = directory;
    }

    static RedisServerProcess start(Path binary) {
        IllegalStateException failure = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            try {
                return startOnce(binary, freePort());
            } catch (IllegalStateException e) {
                // the free port may have been taken between probing and binding: try another one
                failure = e;
            }
        }
        throw failure;
    }

    private static RedisServerProcess startOnce(Path binary, int port) {
        Path directory;
        Process process;
        try {
            directory = Files.createTempDirectory("vpki-redis-" + port + "-");
            File log = directory.resolve("redis.log").toFile();
            process = new ProcessBuilder(List.of(binary.toString(),
                    "--port", Integer.toString(port),
                    "--bind", HOST,
                    "--protected-mode", "no",
                    "--save", "",
                    "--appendonly", "no",
                    "--daemonize", "no",
                    "--dir", directory.toString()))
                    .directory(directory.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + binary, e);
        }
        RUNNING.add(process);
        RedisServerProcess server = new RedisServerProcess(process, port, directory);
        try {
            await("redis-server on port " + port + " answers PING")
                    .atMost(START_TIMEOUT)
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(20))
                    .ignoreException(JedisConnectionException.class)
                    .until(server::answersPing);
        } catch (ConditionTimeoutException | IllegalStateException e) {
            server.kill();
            throw new IllegalStateException("redis-server did not start on port " + port + ": " + server.log(), e);
        }
        return server;
    }

    private boolean answersPing() {
        if (!process.isAlive()) {
            throw new IllegalStateException("redis-server exited with " + process.exitValue());
        }
        try (Jedis jedis = new Jedis(HOST, port, 1_000)) {
            return "PONG".equals(jedis.ping());
        }
    }

    private String log() {
        try {
            return Files.readString(directory.resolve("redis.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + HOST, e);
        }
    }

    /** The operating-system process id, for tests that check the process is really gone. */
    long pid() {
        return process.pid();
    }

    @Override
    public String host() {
        return HOST;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public boolean isRunning() {
        return process.isAlive();
    }

    @Override
    public void kill() {
        process.destroyForcibly();
        awaitExit();
    }

    @Override
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

    private void awaitExit() {
        try {
            process.onExit().get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IllegalStateException("redis-server on port " + port + " did not exit", e);
        } finally {
            RUNNING.remove(process);
            deleteDirectory();
        }
    }

    private void deleteDirectory() {
        try (var files = Files.walk(directory)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a leftover empty temp directory is harmless
        }
    }
}
