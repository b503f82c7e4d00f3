package eu.vpki.common.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import redis.clients.jedis.Jedis;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs only where a Docker engine is reachable; skipped, not failed, elsewhere. */
@EnabledIf("eu.vpki.common.testing.DockerEngine#isReachable")
class DockerRedisTest {

    @Test
    void container_answersPingAndStoresValues() {
        try (DockerRedis redis = DockerRedis.start(); Jedis jedis = redis.connect()) {
            assertThat(jedis.ping()).isEqualTo("PONG");
            jedis.set("k", "v");
            assertThat(jedis.get("k")).isEqualTo("v");
        }
    }

    @Test
    void kill_stopsTheContainer() {
        DockerRedis redis = DockerRedis.start();
        try {
            redis.kill();
            assertThat(redis.isRunning()).isFalse();
        } finally {
            redis.stop();
        }
    }
}
