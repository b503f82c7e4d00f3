package eu.vpki.shell.replication;

import eu.vpki.common.etsi.crypto.DeploymentCredentials;
import eu.vpki.common.replication.OriginCredentials;
import eu.vpki.common.replication.ReplicatedKeyspace;
import eu.vpki.common.replication.ReplicationConfig;
import eu.vpki.common.replication.Replica;
import eu.vpki.shell.management.ManagedCertificate;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

import java.security.SecureRandom;
import java.time.Clock;

/**
 * For a service that declares the {@link ReplicatedKeyspace} it replicates (EA, Operator): the pool
 * of its own Redis ({@code vpki.redis.*}, with separate connect and read timeouts), its {@link Replica} joined to the group at start-up
 * ({@code vpki.replication.*}; a bad value fails the start naming the key; with {@code tls-key-store}, mutual TLS and
 * commands signed by their origin, docs/design-replication-security.md), the health
 * indicators {@code replica} and {@code redis}, and the endpoint {@code /actuator/replication}
 * ({@link ReplicationEndpoint}; with replication TLS, its certificate's validity is watched too).
 */
@AutoConfiguration
@ConditionalOnBean(ReplicatedKeyspace.class)
@EnableConfigurationProperties({ReplicationProperties.class, RedisProperties.class})
public class ReplicationAutoConfiguration {

    @Bean(destroyMethod = "close")
    JedisPool jedisPool(RedisProperties redis) {
        JedisPoolConfig config = new JedisPoolConfig();
        config.setMaxTotal(redis.maxConnections());
        config.setMaxIdle(redis.maxConnections());
        config.setJmxEnabled(false);
        // connect and read timeouts apart: a Redis that is slow for seconds (an AOF rewrite) is not a dead one
        return new JedisPool(config, redis.connectionUri(System.getenv()), (int) redis.connectTimeout().toMillis(),
                (int) redis.readTimeout().toMillis());
    }

    @Bean(destroyMethod = "close")
    Replica replica(ReplicationProperties replication, ReplicatedKeyspace keyspace, JedisPool redis, Clock clock, SecureRandom random,
                    MeterRegistry registry) {
        ReplicationConfig config = replication.toConfig();
        ReplicationConfig.Tls tls = config.tls();
        // with TLS, the same key and trust stores sign this replica's commands and check every origin's
        OriginCredentials credentials = tls.enabled()
                ? DeploymentCredentials.read(tls.keyStore(), tls.keyStorePassword().toCharArray(), tls.trustStore(),
                        tls.trustStorePassword().toCharArray(), random)
                : null;
        Replica replica = new Replica(config, keyspace, redis, clock, registry, credentials);
        replica.connect();
        return replica;
    }

    @Bean
    ReplicationEndpoint replicationEndpoint(Replica replica, ObjectProvider<ManagedCertificate> certificates, Clock clock) {
        return new ReplicationEndpoint(replica::snapshot, certificates.orderedStream().toList(), clock);
    }

    /** With replication TLS: its certificate's validity, watched like the authorities' ({@link ManagedCertificate}). */
    @Bean
    ManagedCertificate replicationTlsCertificate(ReplicationProperties replication) {
        ReplicationConfig.Tls tls = replication.toConfig().tls();
        return tls.enabled() ? ReplicationTlsCertificate.read(tls.keyStore(), tls.keyStorePassword().toCharArray()) : null;
    }

    @Bean
    ReplicaHealthIndicator replicaHealthIndicator(Replica replica) {
        return new ReplicaHealthIndicator(replica::status);
    }

    @Bean
    RedisHealthIndicator redisHealthIndicator(RedisProperties redis) {
        return new RedisHealthIndicator(redis.connectionUri(System.getenv()), redis.connectTimeout(), redis.healthTimeout(),
                redis.slowThreshold());
    }
}
