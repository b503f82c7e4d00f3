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
        String window = System.getProperty("vpki.test.redis-ports");
        if (window == null || window.isBlank()) {
            return new RedisServerProcess(RedisServer.start(binary, RedisServer.Options.ephemeral()));
        }
        IllegalStateException failure = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return new RedisServerProcess(RedisServer.start(binary, RedisServer.Options.ephemeral().onPort(TestPorts.freeIn(window))));
            } catch (IllegalStateException e) {
                // a probed free port may be taken before redis binds it: try another one
                failure = e;
            }
        }
        throw failure;
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
