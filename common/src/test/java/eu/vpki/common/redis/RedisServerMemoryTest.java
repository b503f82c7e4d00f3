package eu.vpki.common.redis;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A redis-server started with a memory limit runs with it and never evicts: at the limit it refuses writes. */
class RedisServerMemoryTest {
    @Test
    void maxMemory_isSet_withNoEviction_andAWriteBeyondItIsRefused() {
        try (RedisServer redis = RedisServer.start(RedisServerBinary.locate(), RedisServer.Options.ephemeral().withMaxMemory(4_000_000));
                Jedis jedis = redis.connect(5_000)) {
            assertThat(jedis.configGet("maxmemory")).containsEntry("maxmemory", "4000000");
            assertThat(jedis.configGet("maxmemory-policy")).containsEntry("maxmemory-policy", "noeviction");
            String value = "x".repeat(100_000);
            assertThatThrownBy(() -> {
                for (int i = 0; i < 100; i++) {
                    jedis.set("k" + i, value);
                }
            }).isInstanceOf(JedisDataException.class).hasMessageStartingWith("OOM");
            assertThat(jedis.exists("k0")).as("nothing evicted").isTrue();
        }
    }

    @Test
    void withoutALimit_noMaxMemory() {
        try (RedisServer redis = RedisServer.start(RedisServerBinary.locate(), RedisServer.Options.ephemeral());
                Jedis jedis = redis.connect(5_000)) {
            assertThat(jedis.configGet("maxmemory")).containsEntry("maxmemory", "0");
            assertThat(jedis.configGet("maxmemory-policy")).containsEntry("maxmemory-policy", "noeviction");
        }
    }
}
