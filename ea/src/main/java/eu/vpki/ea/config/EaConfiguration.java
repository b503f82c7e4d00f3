package eu.vpki.ea.config;

import eu.vpki.common.distribution.TrustListClient;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareKeyStore;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.fleet.FleetState;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.replication.ReplicaStatus;
import eu.vpki.ea.core.AuthorizationAuthorityDirectory;
import eu.vpki.ea.core.AuthorizationValidationService;
import eu.vpki.ea.core.EaIdentity;
import eu.vpki.ea.core.EnrolmentService;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;

/** Reads the configuration and wires the EA core: the only place that knows both. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({EaProperties.class, KeystoreProperties.class, RcaProperties.class, ReplicationProperties.class,
        RedisProperties.class, DcProperties.class})
public class EaConfiguration {
    private static final Logger log = LoggerFactory.getLogger(EaConfiguration.class);

    /** The system clock, unless a test (or an embedding) registered another one. */
    @Bean
    @ConditionalOnMissingBean(Clock.class)
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    SecureRandom secureRandom() {
        return new SecureRandom();
    }

    @Bean(destroyMethod = "close")
    JedisPool jedisPool(RedisProperties redis) {
        JedisPoolConfig config = new JedisPoolConfig();
        config.setMaxTotal(64);
        config.setMaxIdle(64);
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
    EaIdentity eaIdentity(EaProperties ea, KeystoreProperties keystore, SecureRandom random) {
        EtsiCertificate certificate = EtsiCertificate.decode(read(ea.certificateFile(), "vpki.ea.certificate-file"));
        SoftwareKeyStore store = SoftwareKeyStore.openOrCreate(keystore.path(),
                SoftwareKeyStore.password(keystore.passwordFile(), System.getenv(), "VPKI_KEYSTORE_PASSWORD"));
        EtsiKeyPair signing = store.keyPair(ea.signingKeyAlias()).orElseThrow(() -> new PkiException(ErrorCode.KEY_STORE_FAILURE,
                "vpki.keystore.path " + keystore.path() + " has no key '" + ea.signingKeyAlias() + "' (vpki.ea.signing-key-alias)"));
        EtsiKeyPair encryption = store.keyPair(ea.encryptionKeyAlias()).orElseThrow(() -> new PkiException(ErrorCode.KEY_STORE_FAILURE,
                "vpki.keystore.path " + keystore.path() + " has no key '" + ea.encryptionKeyAlias() + "' (vpki.ea.encryption-key-alias)"));
        return new EaIdentity(certificate, new SoftwareSigner(signing, random), encryption);
    }

    /**
     * The AAs of the current CTL: from the DCs ({@code vpki.dc.urls}, via TrustListClient) when set,
     * else from a CTL file ({@code vpki.ea.ctl-file}); both need {@code vpki.rca.certificate-file}.
     */
    @Bean
    AuthorizationAuthorityDirectory authorizationAuthorities(EaProperties ea, RcaProperties rca, DcProperties dc, Clock clock) {
        if (dc.urls().isEmpty() && ea.ctlFile() == null) {
            log.warn("neither vpki.dc.urls nor vpki.ea.ctl-file is set: no AA is trusted, every authorization validation is refused");
            return id -> Optional.empty();
        }
        if (rca.certificateFile() == null) {
            throw new IllegalStateException("vpki.dc.urls / vpki.ea.ctl-file need vpki.rca.certificate-file to verify the CTL");
        }
        EtsiCertificate root = EtsiCertificate.decode(read(rca.certificateFile(), "vpki.rca.certificate-file"));
        if (!dc.urls().isEmpty()) {
            return new TrustListDirectory(new TrustListClient(dc.urls(), root, TrustListClient.Options.defaults()), clock,
                    dc.refreshInterval());
        }
        return new CtlFileDirectory(ea.ctlFile(), root, clock);
    }

    @Bean
    EnrolmentService enrolmentService(EaIdentity identity, FleetState fleet, Replica replica, Clock clock, SecureRandom random,
                                      EaProperties ea, MeterRegistry registry) {
        return new EnrolmentService(identity, fleet, replica, clock, random, ea.toSettings(), registry);
    }

    @Bean
    AuthorizationValidationService authorizationValidationService(EaIdentity identity, FleetState fleet,
                                                                  AuthorizationAuthorityDirectory aas, Clock clock,
                                                                  SecureRandom random, MeterRegistry registry) {
        return new AuthorizationValidationService(identity, fleet, aas, clock, random, registry);
    }

    private static byte[] read(Path file, String key) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalStateException(key + ": cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
