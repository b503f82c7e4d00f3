package eu.vpki.common.testing;

import eu.vpki.common.redis.RedisServerBinary;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.exceptions.JedisConnectionException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RedisServerProcessTest {

    @Test
    void start_answersPingAndStoresValues() {
        try (RedisServerProcess redis = RedisServerProcess.start(RedisServerBinary.locate());
                JedisPool pool = redis.newPool();
                Jedis jedis = pool.getResource()) {
            assertThat(jedis.ping()).isEqualTo("PONG");
            jedis.set("greeting", "hello");
            assertThat(jedis.get("greeting")).isEqualTo("hello");
            assertThat(redis.url()).isEqualTo("redis://127.0.0.1:" + redis.port());
        }
    }

    @Test
    void stop_endsTheProcess() {
        RedisServerProcess redis = RedisServerProcess.start(RedisServerBinary.locate());
        long pid = redis.pid();

        redis.stop();

        assertThat(redis.isRunning()).isFalse();
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
        redis.stop();
    }

    @Test
    void kill_crashesTheServerSoClientsFail() {
        RedisServerProcess redis = RedisServerProcess.start(RedisServerBinary.locate());

        redis.kill();

        assertThat(redis.isRunning()).isFalse();
        assertThatThrownBy(() -> {
            try (Jedis jedis = redis.connect()) {
                jedis.ping();
            }
        }).isInstanceOf(JedisConnectionException.class);
    }

    @Test
    void flushAll_emptiesTheServer() {
        try (RedisServerProcess redis = RedisServerProcess.start(RedisServerBinary.locate());
                Jedis jedis = redis.connect()) {
            jedis.set("a", "1");

            redis.flushAll();

            assertThat(jedis.dbSize()).isZero();
        }
    }

    @Test
    void twoServers_areIndependent() {
        try (RedisServerProcess first = RedisServerProcess.start(RedisServerBinary.locate());
                RedisServerProcess second = RedisServerProcess.start(RedisServerBinary.locate());
                Jedis one = first.connect();
                Jedis two = second.connect()) {
            one.set("only-in-first", "x");

            assertThat(first.port()).isNotEqualTo(second.port());
            assertThat(two.exists("only-in-first")).isFalse();
        }
    }

    @Test
    void locate_findsAnExecutableBinary() {
        Path binary = RedisServerBinary.locate();

        assertThat(Files.isExecutable(binary)).isTrue();
        assertThat(RedisServerBinary.locate()).isEqualTo(binary);
    }

    @Test
    void override_rejectsANonExecutablePath() {
        String previous = System.getProperty(RedisServerBinary.OVERRIDE_PROPERTY);
        System.setProperty(RedisServerBinary.OVERRIDE_PROPERTY, "/nonexistent/redis-server");
        try {
            assertThatThrownBy(RedisServerBinary::locate)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("VPKI_REDIS_SERVER");
        } finally {
            if (previous == null) {
                System.clearProperty(RedisServerBinary.OVERRIDE_PROPERTY);
            } else {
                System.setProperty(RedisServerBinary.OVERRIDE_PROPERTY, previous);
            }
        }
    }

    @Test
    void override_runsTheNamedBinary() {
        Path binary = RedisServerBinary.locate();
        String previous = System.getProperty(RedisServerBinary.OVERRIDE_PROPERTY);
        System.setProperty(RedisServerBinary.OVERRIDE_PROPERTY, binary.toString());
        try (RedisFixture redis = RedisFixture.start(); Jedis jedis = redis.connect()) {
            assertThat(redis).isInstanceOf(RedisServerProcess.class);
            assertThat(jedis.ping()).isEqualTo("PONG");
        } finally {
            if (previous == null) {
                System.clearProperty(RedisServerBinary.OVERRIDE_PROPERTY);
            } else {
                System.setProperty(RedisServerBinary.OVERRIDE_PROPERTY, previous);
            }
        }
    }

    @Test
    void dockerProbe_answersQuicklyAndNeverThrows() {
        long started = System.nanoTime();

        boolean reachable = DockerEngine.isReachable();

        assertThat(reachable).isEqualTo(DockerEngine.isReachable());
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void start_choosesABackendThatWorks() {
        try (RedisFixture redis = RedisFixture.start(); Jedis jedis = redis.connect()) {
            jedis.sadd("s", "a", "b");
            assertThat(jedis.smembers("s")).containsExactlyInAnyOrder("a", "b");
            boolean installed = RedisServerBinary.explicitOverride().or(RedisServerBinary::onPath).isPresent();
            assertThat(redis).isInstanceOf(!installed && DockerEngine.isReachable() ? DockerRedis.class : RedisServerProcess.class);
        }
    }
}
