/**
 * Test fixtures shared by every module through common's test jar.
 *
 * <p>{@link eu.vpki.common.testing.RedisFixture#start()} gives a real Redis: a Testcontainers
 * {@code redis:7} container when a Docker engine is reachable, otherwise a {@code redis-server}
 * process on a free loopback port (the binary named by {@code VPKI_REDIS_SERVER}, the one on
 * {@code PATH}, or the one shipped inside the embedded-redis jar). There is deliberately no
 * in-memory fake: storage tests run against the real server.
 */
package eu.vpki.common.testing;
