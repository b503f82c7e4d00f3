package eu.vpki.aa.config;

import eu.vpki.shell.management.ManagedCertificate;
import eu.vpki.aa.core.AaIdentity;
import eu.vpki.aa.core.AaMetrics;
import eu.vpki.aa.core.AtPolicy;
import eu.vpki.aa.core.AuthorizationService;
import eu.vpki.aa.core.AuthorizationValidationClient;
import eu.vpki.aa.core.CtlEaDirectory;
import eu.vpki.aa.core.EaDirectory;
import eu.vpki.aa.core.EaValidation;
import eu.vpki.aa.core.RequestWindow;
import eu.vpki.aa.ea.JdkValidationClient;
import eu.vpki.aa.ea.NettyValidationClient;
import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.distribution.TrustListClient;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.GeographicRegion;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.shell.etsi.AccessPointWorkers;
import eu.vpki.shell.etsi.EventLoops;
import eu.vpki.shell.keys.AuthorityKeySource;
import eu.vpki.shell.keys.AuthorityKeys;
import eu.vpki.shell.replay.CaffeineReplayCache;
import eu.vpki.shell.tls.ClientTls;
import eu.vpki.shell.trust.TrustListProperties;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/** Reads the configuration and wires the AA core: the only place that knows both. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({AaProperties.class, TrustListProperties.class})
public class AaConfiguration {

    @Bean
    DataEncryption dataEncryption(SecureRandom random) {
        return new DataEncryption(random);
    }

    @Bean
    AaIdentity aaIdentity(AaProperties aa, AuthorityKeySource keySource) {
        AuthorityKeys keys = AuthorityKeys.load("vpki.aa", aa.certificateFile(), aa.signingKeyAlias(), aa.encryptionKeyAlias(), keySource);
        return AaIdentity.of(keys.certificate(), keys.signing(), keys.encryption());
    }

    /** The CTL and CRL from {@code vpki.dc.urls}, verified against {@code vpki.rca.certificate-file} (both required). */
    /** The AA certificate's validity, watched (gauge vpki.certificate.expiry). */
    @Bean
    ManagedCertificate aaCertificate(AaIdentity identity) {
        return ManagedCertificate.etsi("aa", identity.certificate());
    }

    /** The root certificate the AA trusts, when configured: its validity, watched. */
    @Bean
    ManagedCertificate rcaCertificate(TrustListProperties trust) {
        return trust.rca().certificateFile() == null ? null : ManagedCertificate.etsi("rca", trust.rcaCertificate());
    }

    @Bean
    TrustListClient trustListClient(TrustListProperties trust, ClientTls clientTls) {
        return trust.client(clientTls.sslContext());
    }

    @Bean
    TrustListRefresher trustListRefresher(TrustListClient client, TrustListProperties trust, Clock clock) {
        return new TrustListRefresher(client, trust.dc().checkInterval(), clock);
    }

    @Bean
    EaDirectory eaDirectory(TrustListClient client, AaProperties aa) {
        return new CtlEaDirectory(client::current, () -> client.ctl()
                .orElseThrow(() -> new PkiException(ErrorCode.NOT_TRUSTED, "no CTL fetched yet")),
                perEa(aa.ea().replicas(), "vpki.aa.ea.replicas"), perEa(aa.ea().accessPoints(), "vpki.aa.ea.access-points"));
    }

    private static Map<HashedId8, List<URI>> perEa(Map<String, List<URI>> byHex, String key) {
        Map<HashedId8, List<URI>> out = new HashMap<>();
        byHex.forEach((id, urls) -> {
            try {
                out.put(HashedId8.fromHex(id), List.copyOf(urls));
            } catch (PkiException e) {
                throw new IllegalStateException(key + ": key '" + id + "' is not an EA HashedId8 (16 hex digits)", e);
            }
        });
        return out;
    }

    @Bean
    AuthorizationValidationClient authorizationValidationClient(AaProperties aa, ClientTls clientTls, EventLoops loops) {
        AaProperties.Ea ea = aa.ea();
        return switch (ea.client()) {
            case NETTY ->
                new NettyValidationClient(loops, ea.connectTimeout(), ea.requestTimeout(), ea.maxConnections(), clientTls.sslContext());
            case JDK -> new JdkValidationClient(ea.connectTimeout(), ea.requestTimeout(), clientTls.sslContext());
        };
    }

    @Bean
    RequestWindow requestWindow(AaProperties aa) {
        return new RequestWindow(aa.requestWindow(), aa.clockSkew(), aa.requireProofOfPossession(), aa.requireEncryptedEcSignature());
    }

    /**
     * Request fingerprints for the replay window, at most {@code vpki.aa.replay-cache-entries}; when
     * full, the oldest go (fail open, counted: docs/aa.md, "Replay window").
     */
    @Bean
    CaffeineReplayCache replayCache(AaProperties aa, RequestWindow window, Clock clock, MeterRegistry registry) {
        return new CaffeineReplayCache("aa-replay", window.replayRetention(), aa.replayCacheEntries(),
                CaffeineReplayCache.WhenFull.EVICT, clock, registry);
    }

    @Bean
    AaMetrics aaMetrics(MeterRegistry registry) {
        return new AaMetrics(registry);
    }

    @Bean
    AtPolicy atPolicy(AaProperties aa) {
        GeographicRegion region = aa.at().regionCountries().isEmpty() ? null : new GeographicRegion.Countries(aa.at().regionCountries());
        return new AtPolicy(aa.at().validity(), aa.at().backdate(), region, new HashSet<>(aa.at().psids()));
    }

    @Bean
    AuthorizationService authorizationService(AaIdentity identity, EaDirectory directory, AuthorizationValidationClient client,
                                              AtPolicy policy, RequestWindow window, CaffeineReplayCache replayCache, AuditLog audit,
                                              AaMetrics metrics, Clock clock, DataEncryption encryption, AuthorityKeySource keys,
                                              AccessPointWorkers workers) {
        return new AuthorizationService(identity, directory, new EaValidation(identity, client, encryption, metrics), policy, window,
                replayCache, audit, metrics, clock, encryption, keys.mayBlock() ? workers : Runnable::run);
    }
}
