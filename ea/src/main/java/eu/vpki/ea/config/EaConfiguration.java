package eu.vpki.ea.config;

import eu.vpki.shell.management.ManagedCertificate;
import eu.vpki.common.audit.AuditLog;
import eu.vpki.shell.limits.RequestBodyLimit;
import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.fleet.FleetState;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.replication.ReplicatedKeyspace;
import eu.vpki.ea.core.AuthorizationAuthorityDirectory;
import eu.vpki.ea.core.AuthorizationValidationService;
import eu.vpki.ea.core.EaIdentity;
import eu.vpki.ea.core.EnrolmentService;
import eu.vpki.shell.keys.AuthorityKeySource;
import eu.vpki.shell.keys.AuthorityKeys;
import eu.vpki.shell.trust.TrustListProperties;
import eu.vpki.shell.replay.CaffeineReplayCache;
import eu.vpki.shell.tls.ClientTls;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.JedisPool;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** Reads the configuration and wires the EA core: the only place that knows both. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({EaProperties.class, TrustListProperties.class})
public class EaConfiguration {
    /** Bodies of the EA's endpoints over {@code vpki.ea.max-request-bytes} are refused (413) by the service shell before anything reads them. */
    @Bean
    RequestBodyLimit eaRequestBodyLimit(EaProperties properties) {
        return new RequestBodyLimit("vpki.ea.max-request-bytes", List.of("/ea/**"),
                properties.maxRequestBytes());
    }

    private static final Logger log = LoggerFactory.getLogger(EaConfiguration.class);

    /** The replicated fleet state: the service shell joins the replica to the group and watches its health. */
    @Bean
    ReplicatedKeyspace fleetKeyspace() {
        return FleetKeys.KEYSPACE;
    }

    /**
     * The fleet state of this replica's Redis; with {@code vpki.ea.ec-cache-entries} above 0, the EC and
     * station records of validations and re-enrolments are kept, invalidated by every write the replica
     * applies to them (docs/ea.md, authorization validation step 4).
     */
    @Bean
    FleetState fleetState(JedisPool redis, Replica replica, EaProperties ea) {
        return ea.ecCacheEntries() == 0
                ? new FleetState(redis, replica::status)
                : FleetState.withEcCache(redis, replica, ea.ecCacheEntries());
    }

    @Bean
    EaIdentity eaIdentity(EaProperties ea, AuthorityKeySource keySource) {
        AuthorityKeys keys = AuthorityKeys.load("vpki.ea", ea.certificateFile(), ea.signingKeyAlias(), ea.encryptionKeyAlias(), keySource);
        return new EaIdentity(keys.certificate(), keys.signing(), keys.encryption());
    }

    /** The EA certificate's validity, watched (gauge vpki.certificate.expiry, /actuator/replication). */
    @Bean
    ManagedCertificate eaCertificate(EaIdentity identity) {
        return ManagedCertificate.etsi("ea", identity.certificate());
    }

    /** The root certificate the EA trusts, when configured: its validity, watched. */
    @Bean
    ManagedCertificate rcaCertificate(TrustListProperties trust) {
        return trust.rca().certificateFile() == null ? null : ManagedCertificate.etsi("rca", trust.rcaCertificate());
    }

    /**
     * The AAs of the current CTL: from the DCs ({@code vpki.dc.urls}, via TrustListClient) when set,
     * else from a CTL file ({@code vpki.ea.ctl-file}); both need {@code vpki.rca.certificate-file}.
     */
    @Bean
    AuthorizationAuthorityDirectory authorizationAuthorities(EaProperties ea, TrustListProperties trust, Clock clock, ClientTls clientTls) {
        if (trust.dc().urls().isEmpty() && ea.ctlFile() == null) {
            log.warn("neither vpki.dc.urls nor vpki.ea.ctl-file is set: no AA is trusted, every authorization validation is refused");
            return id -> Optional.empty();
        }
        if (trust.rca().certificateFile() == null) {
            throw new IllegalStateException("vpki.dc.urls / vpki.ea.ctl-file need vpki.rca.certificate-file to verify the CTL");
        }
        if (!trust.dc().urls().isEmpty()) {
            return new TrustListDirectory(trust.client(clientTls.sslContext()), clock, trust.dc().checkInterval());
        }
        return new CtlFileDirectory(ea.ctlFile(), trust.rcaCertificate(), clock);
    }

    /**
     * Enrolment fingerprints for the request window plus the clock skew, at most
     * {@code vpki.ea.replay-cache-entries}; full of live entries, the EA refuses (fail closed).
     */
    @Bean
    CaffeineReplayCache enrolmentReplayCache(EaProperties ea, Clock clock, MeterRegistry registry) {
        return new CaffeineReplayCache("ea-enrolment", ea.requestWindow().plus(ea.clockSkew()), ea.replayCacheEntries(),
                CaffeineReplayCache.WhenFull.REFUSE, clock, registry);
    }

    @Bean
    EnrolmentService enrolmentService(EaIdentity identity, FleetState fleet, Replica replica, Clock clock, SecureRandom random,
                                      EaProperties ea, CaffeineReplayCache enrolmentReplayCache, AuditLog audit,
                                      MeterRegistry registry) {
        return new EnrolmentService(identity, fleet, replica, clock, random, ea.toSettings(), enrolmentReplayCache, audit, registry);
    }

    @Bean
    AuthorizationValidationService authorizationValidationService(EaIdentity identity, FleetState fleet,
                                                                  AuthorizationAuthorityDirectory aas, Clock clock,
                                                                  SecureRandom random, AuditLog audit, MeterRegistry registry) {
        return new AuthorizationValidationService(identity, fleet, aas, clock, random, audit, registry);
    }
}
