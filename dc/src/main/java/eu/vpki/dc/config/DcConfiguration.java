package eu.vpki.dc.config;

import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.dc.core.DistributionCentre;
import eu.vpki.dc.core.RcaPull;
import eu.vpki.dc.core.TrustedRoots;
import eu.vpki.shell.limits.RequestBodyLimit;
import eu.vpki.shell.tls.ClientTls;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.net.http.HttpClient;
import java.time.Clock;
import java.util.List;

/** Wires the plain-Java DC core from validated properties; pulls from the RCA at start when empty and periodically. */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
@EnableConfigurationProperties({DcProperties.class, RcaLinkProperties.class})
public class DcConfiguration {
    private static final Logger LOG = LoggerFactory.getLogger(DcConfiguration.class);

    /** Lists pushed to {@code /publish/**} over {@code vpki.dc.max-list-bytes} are refused (413) by the service shell before they are buffered. */
    @Bean
    RequestBodyLimit publishRequestBodyLimit(DcProperties dc) {
        return new RequestBodyLimit("vpki.dc.max-list-bytes", List.of("/publish/**"), dc.maxListBytes().toBytes());
    }

    /**
     * The client of the RCA pulls, with {@code vpki.dc.rca.connect-timeout}; over https it trusts the CA of
     * {@code vpki.rca.ssl-bundle} when one is named, else that of {@code vpki.tls.client-bundle} (the JDK's
     * public CAs when neither is). Warns at start-up of the deprecated {@code vpki.dc.request-timeout}.
     */
    @Bean
    HttpClient dcHttpClient(RcaLinkProperties rca, DcProperties dc, ObjectProvider<SslBundles> bundles, ClientTls clientTls) {
        dc.deprecationWarning().ifPresent(LOG::warn);
        ClientTls tls = rca.sslBundle() != null && !rca.sslBundle().isBlank()
                ? ClientTls.of(bundles.getObject(), rca.sslBundle())
                : clientTls;
        return tls.httpClient(dc.rca().connectTimeout()).build();
    }

    @Bean
    TrustedRoots trustedRoots(DcProperties dc, RcaLinkProperties rca, HttpClient http) {
        List<HashedId8> pinned = dc.trustedRca().stream().map(h -> {
            try {
                return HashedId8.fromHex(h.trim());
            } catch (PkiException e) {
                throw new PkiException(e.code(), "vpki.dc.trusted-rca: '" + h + "' is not a HashedId8 (16 hex digits)", e);
            }
        }).toList();
        return TrustedRoots.bootstrap(rca.certificateFile(), pinned, rca.url(), dc.dataDir().resolve("trust"), http,
                dc.rcaRequestTimeout());
    }

    @Bean
    DistributionCentre distributionCentre(TrustedRoots roots, DcProperties dc, Clock clock, MeterRegistry registry, AuditLog audit) {
        return new DistributionCentre(roots, dc.dataDir(), clock, registry, audit);
    }

    @Bean
    RcaPullTask rcaPullTask(ObjectProvider<RcaLinkProperties> rca, DistributionCentre dc, HttpClient http, DcProperties props) {
        RcaLinkProperties link = rca.getObject();
        return new RcaPullTask(link.url() == null ? null : new RcaPull(link.url(), dc, http, props.rcaRequestTimeout()), dc);
    }

    /** At start: pull from the RCA if a list is missing (a DC restarted empty recovers here). */
    @Bean
    ApplicationRunner recoverAtStart(RcaPullTask task) {
        return args -> task.recoverIfEmpty();
    }

    /** The periodic pull, if {@code vpki.rca.url} is set. */
    public static final class RcaPullTask {
        private final RcaPull pull;
        private final DistributionCentre dc;

        RcaPullTask(RcaPull pull, DistributionCentre dc) {
            this.pull = pull;
            this.dc = dc;
        }

        public void recoverIfEmpty() {
            if (!dc.complete()) {
                if (pull == null) {
                    LOG.warn("no lists held for some RCA and no vpki.rca.url to pull them from: waiting for the RCA to publish");
                } else if (!pull.pull()) {
                    LOG.warn("recovery from the RCA incomplete; retrying every vpki.dc.pull-interval");
                }
            }
        }

        @Scheduled(fixedDelayString = "${vpki.dc.pull-interval:PT5M}", initialDelayString = "${vpki.dc.pull-interval:PT5M}")
        public void pullPeriodically() {
            if (pull != null) {
                pull.pull();
            }
        }
    }
}
