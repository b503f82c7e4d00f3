package eu.vpki.common.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.List;

/**
 * One Redis (or several, one per replica of a cluster test) per test class, emptied before each test:
 * <pre>{@code
 * @RegisterExtension
 * static final RedisFixtureExtension REDIS = new RedisFixtureExtension();
 * ... REDIS.fixture().newPool() ...
 * }</pre>
 */
public final class RedisFixtureExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    private final int servers;
    private List<RedisFixture> fixtures = List.of();

    /** One server. */
    public RedisFixtureExtension() {
        this(1);
    }

    /** {@code servers} separate servers. */
    public RedisFixtureExtension(int servers) {
        if (servers < 1) {
            throw new IllegalArgumentException("at least one server");
        }
        this.servers = servers;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        List<RedisFixture> started = new ArrayList<>();
        for (int i = 0; i < servers; i++) {
            started.add(RedisFixture.start());
        }
        fixtures = List.copyOf(started);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        fixtures.forEach(RedisFixture::flushAll);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        fixtures.forEach(RedisFixture::stop);
        fixtures = List.of();
    }

    /** The (first) running server; only valid between the class's first and last test. */
    public RedisFixture fixture() {
        return fixtures().get(0);
    }

    /** The running servers; only valid between the class's first and last test. */
    public List<RedisFixture> fixtures() {
        if (fixtures.isEmpty()) {
            throw new IllegalStateException("Redis fixture is not running: register the extension on a static field");
        }
        return fixtures;
    }
}
