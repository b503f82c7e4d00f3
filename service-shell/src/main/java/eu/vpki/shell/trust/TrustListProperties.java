package eu.vpki.shell.trust;

import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.distribution.TrustListClient;
import eu.vpki.shell.keys.ConfigFiles;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * {@code vpki.rca.certificate-file} and {@code vpki.dc.*} as the services that fetch the RCA's CTL and CRL
 * from the Distribution Centres read them (the EA and the AA; docs/configuration.md): the RCA the lists must
 * be signed by, the DCs, how often a refresh is checked for, when the lists are refetched, and the HTTP
 * timeouts. A service enables it with {@code @EnableConfigurationProperties(TrustListProperties.class)}; the
 * DC, whose {@code vpki.dc.*} keys mean something else, does not.
 *
 * @param rca the RCA certificate
 * @param dc  the DCs and the client's timing
 */
@ConfigurationProperties("vpki")
public record TrustListProperties(@DefaultValue Rca rca, @DefaultValue Dc dc) {

    /** @param certificateFile the RCA certificate (COER) the CTL and CRL must be signed by */
    public record Rca(Path certificateFile) {
    }

    /**
     * @param urls             the DCs' base URLs, tried in turn
     * @param checkInterval    how often the service checks whether the lists are due for a refetch
     * @param maxAge           refetch when the last fetch is this old
     * @param nextUpdateMargin refetch when the earliest nextUpdate of the held lists is this close
     * @param connectTimeout   HTTP connect timeout to a DC
     * @param requestTimeout   HTTP request timeout to a DC
     */
    public record Dc(List<URI> urls, @DefaultValue("30s") Duration checkInterval, @DefaultValue("15m") Duration maxAge,
                     @DefaultValue("1h") Duration nextUpdateMargin, @DefaultValue("5s") Duration connectTimeout,
                     @DefaultValue("10s") Duration requestTimeout) {
        public Dc {
            urls = urls == null ? List.of() : List.copyOf(urls);
            if (checkInterval == null || checkInterval.isNegative() || checkInterval.isZero()) {
                throw new IllegalArgumentException("vpki.dc.check-interval must be positive");
            }
        }

        public TrustListClient.Options options() {
            return new TrustListClient.Options(connectTimeout, requestTimeout, maxAge, nextUpdateMargin);
        }
    }

    /** The RCA certificate; fails naming {@code vpki.rca.certificate-file} when it is not set or unreadable. */
    public EtsiCertificate rcaCertificate() {
        return EtsiCertificate.decode(ConfigFiles.read(rca.certificateFile(), "vpki.rca.certificate-file"));
    }

    /**
     * A client of the configured DCs that verifies the lists against the RCA; fails when no DC is set.
     *
     * @param tls the trust for https DC URLs ({@code ClientTls}, {@code vpki.tls.client-bundle})
     */
    public TrustListClient client(SSLContext tls) {
        if (dc.urls().isEmpty()) {
            throw new IllegalStateException("vpki.dc.urls is required");
        }
        return new TrustListClient(dc.urls(), rcaCertificate(), dc.options(), tls);
    }
}
