package eu.vpki.common.testing;

import eu.vpki.common.redis.RedisServer;

import java.nio.file.Path;

/** The test fixture over a {@code redis-server} child process ({@link RedisServer}), without persistence. */
final class RedisServerProcess implements RedisFixture {
    private final RedisServer server;

    private RedisServerProcess(RedisServer server) {
        this.server = server;
    }

    static RedisServerProcess start(Path binary) {
        return new RedisServerProcess(RedisServer.start(binary, RedisServer.Options.ephemeral()));
    }

    /** The operating-system process id, for tests that check the process is really gone. */
    long pid() {
        return server.pid();
    }

    @Override
    public String host() {
        return server.host();
    }

    @Override
    public int port() {
        return server.port();
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
    }
}
