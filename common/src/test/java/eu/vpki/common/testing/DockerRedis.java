package eu.vpki.common.testing;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/** Redis in a Testcontainers {@code redis:7} container. */
final class DockerRedis implements RedisFixture {

    private static final int REDIS_PORT = 6379;

    private final GenericContainer<?> container;

    private DockerRedis(GenericContainer<?> container) {
        this.container = container;
    }

    static DockerRedis start() {
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse("redis:7"))
                .withExposedPorts(REDIS_PORT)
                .withCommand("redis-server", "--save", "", "--appendonly", "no")
                .waitingFor(Wait.forLogMessage(".*Ready to accept connections.*\\n", 1));
        container.start();
        return new DockerRedis(container);
    }

    @Override
    public String host() {
        return container.getHost();
    }

    @Override
    public int port() {
        return container.getMappedPort(REDIS_PORT);
    }

    @Override
    public boolean isRunning() {
        return container.isRunning();
    }

    @Override
    public void kill() {
        container.getDockerClient().killContainerCmd(container.getContainerId()).exec();
    }

    @Override
    public void stop() {
        container.stop();
    }
}
