package eu.vpki.common.replication;

import eu.vpki.common.redis.RedisServer;
import eu.vpki.common.redis.RedisServerBinary;
import eu.vpki.common.testing.RedisFixture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A redis-server process with an append-only file (fsync every second), as replicas run in
 * production, that can be killed and started again on the same port with the same files: what a
 * crash and restart of a replica's Redis looks like.
 */
final class AppendOnlyRedis implements RedisFixture {
    private final Path directory;
    private final int port;
    private RedisServer server;

    private AppendOnlyRedis(Path directory, RedisServer server) {
        this.directory = directory;
        this.server = server;
        this.port = server.port();
    }

    static AppendOnlyRedis start() {
        try {
            Path directory = Files.createTempDirectory("vpki-aof-redis-");
            RedisServer first = RedisServer.start(RedisServerBinary.locate(), new RedisServer.Options(0, directory, true));
            return new AppendOnlyRedis(directory, first);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts the server again on the same port with the same files (after {@link #kill()}). */
    void restart() {
        server = RedisServer.start(RedisServerBinary.locate(), new RedisServer.Options(port, directory, true));
    }

    @Override
    public String host() {
        return server.host();
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public boolean isRunning() {
        return server.isRunning();
    }

    @Override
    public void kill() {
        server.kill();
    }

    @Override
    public void stop() {
        server.stop();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a leftover temporary directory is harmless
        }
    }
}
