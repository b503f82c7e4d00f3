package eu.vpki.common.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One Redis per test class, emptied before each test:
 * <pre>{@code
 * @RegisterExtension
 * static final RedisFixtureExtension REDIS = new RedisFixtureExtension();
 * ... REDIS.fixture().newPool() ...
 * }</pre>
 */
public final class RedisFixtureExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    private RedisFixture fixture;

    @Override
    public void beforeAll(ExtensionContext context) {
        fixture = RedisFixture.start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        fixture.flushAll();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (fixture != null) {
            fixture.stop();
            fixture = null;
        }
    }

    /** The running server; only valid between the class's first and last test. */
    public RedisFixture fixture() {
        if (fixture == null) {
            throw new IllegalStateException("Redis fixture is not running: register the extension on a static field");
        }
        return fixture;
    }
}
