package eu.vpki.rca.config;

import eu.vpki.shell.management.ManagedCertificate;
import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.SoftwareKeyStore;
import eu.vpki.rca.core.AdminToken;
import eu.vpki.rca.core.AuthorityCertification;
import eu.vpki.rca.core.DcPublisher;
import eu.vpki.rca.core.RcaSettings;
import eu.vpki.rca.core.RcaState;
import eu.vpki.rca.core.RcaStateStore;
import eu.vpki.rca.core.Revocation;
import eu.vpki.rca.core.RootCa;
import eu.vpki.rca.core.RootCaService;
import eu.vpki.rca.core.RootCertificateProvisioning;
import eu.vpki.shell.keys.AuthorityKeySource;
import eu.vpki.shell.keys.Pkcs11KeySource;
import eu.vpki.shell.tls.ClientTls;
import org.springframework.beans.factory.ObjectProvider;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.net.URI;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Wires the plain-Java Root CA core from validated properties. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({RcaProperties.class, DistributionProperties.class, AdminProperties.class})
public class RcaConfiguration {

    @Bean
    RcaSettings rcaSettings(RcaProperties p, DistributionProperties dc) {
        EtsiCurve curve;
        try {
            curve = EtsiCurve.parse(p.curve());
        } catch (PkiException e) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "vpki.rca.curve: " + e.getMessage(), e);
        }
        for (String url : dc.urls()) {
            try {
                URI u = URI.create(url);
                if (u.getHost() == null || !(url.startsWith("http://") || url.startsWith("https://")) || u.getPath().isEmpty()) {
                    throw new IllegalArgumentException("not an absolute http(s) URL with a path");
                }
            } catch (IllegalArgumentException e) {
                throw new PkiException(ErrorCode.INVALID_ARGUMENT, "vpki.dc.urls: '" + url + "': " + e.getMessage(), e);
            }
        }
        return new RcaSettings(p.name(), curve, p.validityYears(), p.ctlValidity(), p.crlValidity(), p.renewalFraction(),
                dc.urls(), p.authorityValidityDays());
    }

    @Bean
    RcaStateStore rcaStateStore(RcaProperties p) {
        return new RcaStateStore(p.dataDir());
    }

    @Bean
    RootCa rootCa(ObjectProvider<SoftwareKeyStore> keyStore, AuthorityKeySource keys, RcaProperties p, RcaSettings settings,
                  RcaStateStore store, Clock clock, SecureRandom random, AuditLog audit) {
        if (keys instanceof Pkcs11KeySource token) {
            // the key ceremony made the key and the certificate (docs/pki-bootstrap.md); nothing is generated here
            // vpki.rca.curve has no say: the ceremony chose the key's curve, and the key must be on its certificate's
            return RootCertificateProvisioning.loadFromToken(curve -> token.signer(RootCertificateProvisioning.ROOT_KEY_ALIAS,
                    "the root key of the key ceremony (vpki.keystore.pkcs11.slot)", curve), p.dataDir());
        }
        return RootCertificateProvisioning.loadOrCreate(keyStore.getObject(), p.dataDir(), settings, store.load(), clock.instant(), random,
                audit);
    }

    /** The root certificate's validity, watched (gauge vpki.certificate.expiry). */
    @Bean
    ManagedCertificate rootCertificate(RootCa root) {
        return ManagedCertificate.etsi("rca", root.certificate());
    }

    @Bean
    RootCaService rootCaService(RootCa root, RcaSettings settings, RcaStateStore store, Clock clock, MeterRegistry registry,
                                DcPublisher publisher) {
        RcaState initial = store.load();
        RootCaService service = new RootCaService(root, settings, store, initial, clock, registry);
        service.addSink(publisher);
        service.initialise();
        publisher.publish(service.published());
        return service;
    }

    @Bean(destroyMethod = "shutdownNow")
    ExecutorService publishExecutor() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "rca-publish");
            t.setDaemon(true);
            return t;
        });
    }

    @Bean
    DcPublisher dcPublisher(RcaSettings settings, RcaProperties p, ExecutorService publishExecutor, MeterRegistry registry,
                            ClientTls clientTls) {
        List<URI> dcs = settings.distributionCentres().stream().map(URI::create).toList();
        // https DCs: verified with vpki.tls.client-bundle
        HttpClient http = clientTls.httpClient(Duration.ofSeconds(5)).build();
        return new DcPublisher(dcs, http, p.publishTimeout(), publishExecutor, registry);
    }

    @Bean
    AuthorityCertification authorityCertification(RootCaService service, Clock clock, MeterRegistry registry, AuditLog audit) {
        return new AuthorityCertification(service, clock, registry, audit);
    }

    @Bean
    Revocation revocation(RootCaService service, Clock clock, MeterRegistry registry, AuditLog audit) {
        return new Revocation(service, clock, registry, audit);
    }

    @Bean
    AdminToken adminToken(AdminProperties p) {
        return AdminToken.load(p.tokenFile(), System.getenv());
    }
}
