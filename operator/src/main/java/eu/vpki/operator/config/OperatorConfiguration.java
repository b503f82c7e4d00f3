package eu.vpki.operator.config;

import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.fleet.FleetState;
import eu.vpki.common.fleet.VersionClock;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.replication.ReplicaStatus;
import eu.vpki.operator.core.FleetRegistration;
import eu.vpki.operator.core.OperatorCredentials;
import eu.vpki.operator.core.ReadYourWrites;
import eu.vpki.operator.core.StationAdministration;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

import java.time.Clock;

/** Reads the configuration and wires the Operator core: the only place that knows both. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({OperatorProperties.class, ReplicationProperties.class, RedisProperties.class})
public class OperatorConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean(destroyMethod = "close")
    JedisPool jedisPool(RedisProperties redis) {
        JedisPoolConfig config = new JedisPoolConfig();
        config.setMaxTotal(32);
        config.setJmxEnabled(false);
        return new JedisPool(config, redis.url());
    }

    @Bean(destroyMethod = "close")
    Replica replica(ReplicationProperties replication, JedisPool redis, Clock clock, MeterRegistry registry) {
        Replica replica = new Replica(replication.toConfig(), FleetKeys.KEYSPACE, redis, clock, registry);
        replica.connect();
        return replica;
    }

    @Bean
    OperatorCredentials operatorCredentials(OperatorProperties properties) {
        OperatorCredentials credentials = OperatorCredentials.read(properties.credentialsFile());
        if (credentials.size() == 0) {
            throw new IllegalStateException("vpki.operator.credentials-file " + properties.credentialsFile() + " lists no operator");
        }
        return credentials;
    }

    @Bean
    FleetState fleetState(JedisPool redis, Replica replica) {
        return new FleetState(redis, replica::status);
    }

    /**
     * {@code /actuator/health} component {@code replication}: UP while the replica serves, else
     * OUT_OF_SERVICE (HTTP 503, so a load balancer stops sending here) with the replica's state and why.
     * TODO(#22): move into the shared service shell once it exists.
     */
    @Bean
    HealthIndicator replicationHealthIndicator(Replica replica) {
        return () -> {
            ReplicaStatus status = replica.status();
            return Health.status(status.serving() ? Status.UP : Status.OUT_OF_SERVICE).withDetails(status.details()).build();
        };
    }

    @Bean
    VersionClock versionClock(Clock clock) {
        return new VersionClock(clock);
    }

    @Bean
    ReadYourWrites readYourWrites(Replica replica, OperatorProperties properties) {
        return new ReadYourWrites(replica, properties.toSettings());
    }

    @Bean
    FleetRegistration fleetRegistration(FleetState fleet, ReadYourWrites rw, VersionClock versions, OperatorProperties properties) {
        return new FleetRegistration(fleet, rw, versions, properties.toSettings());
    }

    @Bean
    StationAdministration stationAdministration(FleetState fleet, ReadYourWrites rw, VersionClock versions) {
        return new StationAdministration(fleet, rw, versions);
    }
}
