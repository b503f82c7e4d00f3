package eu.vpki.operator.config;

import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.fleet.FleetState;
import eu.vpki.common.fleet.VersionClock;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.replication.ReplicatedKeyspace;
import eu.vpki.operator.core.FleetRegistration;
import eu.vpki.operator.web.OperatorCredentials;
import eu.vpki.operator.core.ReadYourWrites;
import eu.vpki.operator.core.StationAdministration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.JedisPool;

import java.time.Clock;

/** Reads the configuration and wires the Operator core: the only place that knows both. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(OperatorProperties.class)
public class OperatorConfiguration {

    /** The replicated fleet state: the service shell joins the replica to the group and watches its health. */
    @Bean
    ReplicatedKeyspace fleetKeyspace() {
        return FleetKeys.KEYSPACE;
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

    @Bean
    VersionClock versionClock(Clock clock) {
        return new VersionClock(clock);
    }

    @Bean
    ReadYourWrites readYourWrites(Replica replica, OperatorProperties properties) {
        return new ReadYourWrites(replica, properties.toSettings());
    }

    @Bean
    FleetRegistration fleetRegistration(FleetState fleet, ReadYourWrites rw, VersionClock versions, OperatorProperties properties,
                                        AuditLog audit) {
        return new FleetRegistration(fleet, rw, versions, properties.toSettings(), audit);
    }

    @Bean
    StationAdministration stationAdministration(FleetState fleet, ReadYourWrites rw, VersionClock versions, AuditLog audit) {
        return new StationAdministration(fleet, rw, versions, audit);
    }
}
