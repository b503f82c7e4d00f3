package eu.vpki.dc.config;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code vpki.dc.*} as the DC reads it (see docs/configuration.md). In the EA and the AA the same
 * prefix means their calls TO the DC ({@code TrustListProperties}); the DC's own calls to the RCA
 * have keys of their own, {@code vpki.dc.rca.*}.
 *
 * @param dataDir        where the lists (and fetched pinned RCA certificates) are kept
 * @param trustedRca     HashedId8s (hex) of RCAs to trust by pinning, fetched once from {@code vpki.rca.url}
 * @param pullInterval   how often the lists are pulled from {@code vpki.rca.url} (when set)
 * @param requestTimeout deprecated name of {@code vpki.dc.rca.request-timeout} (accepted with a warning at
 *                       start-up; the new key wins when both are set); null when not set
 * @param rca            the DC's calls to the RCA: {@code vpki.dc.rca.connect-timeout}, {@code vpki.dc.rca.request-timeout}
 * @param urls           not used by the DC (the RCA's and AA's list of DCs); bound here only so the key is known
 * @param maxListBytes   largest list body the DC takes at {@code /publish/**} (413 beyond, before it is buffered)
 */
@Validated
@ConfigurationProperties("vpki.dc")
public record DcProperties(@DefaultValue("./data/dc") @NotNull Path dataDir, @DefaultValue List<String> trustedRca,
                           @DefaultValue("PT5M") @NotNull Duration pullInterval,
                           @Deprecated Duration requestTimeout,
                           @DefaultValue @NotNull Rca rca,
                           @DefaultValue List<String> urls,
                           @DefaultValue("4MB") @NotNull DataSize maxListBytes) {

    /** Old key of {@code vpki.dc.rca.request-timeout}. */
    static final String DEPRECATED_REQUEST_TIMEOUT = "vpki.dc.request-timeout";
    private static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /**
     * The DC's calls to the RCA.
     *
     * @param connectTimeout connect timeout to the RCA
     * @param requestTimeout timeout of one request to the RCA; null when not set (then the deprecated
     *                       {@code vpki.dc.request-timeout}, else 10 s)
     */
    public record Rca(@DefaultValue("PT5S") @NotNull Duration connectTimeout, Duration requestTimeout) {
    }

    /** Timeout of requests to the RCA: {@code vpki.dc.rca.request-timeout}, else the deprecated {@code vpki.dc.request-timeout}, else 10 s. */
    public Duration rcaRequestTimeout() {
        if (rca.requestTimeout() != null) {
            return rca.requestTimeout();
        }
        return requestTimeout != null ? requestTimeout : DEFAULT_REQUEST_TIMEOUT;
    }

    /** What to warn of at start-up when the deprecated {@code vpki.dc.request-timeout} is set. */
    public Optional<String> deprecationWarning() {
        if (requestTimeout == null) {
            return Optional.empty();
        }
        return Optional.of(rca.requestTimeout() != null
                ? DEPRECATED_REQUEST_TIMEOUT + " is deprecated and ignored: vpki.dc.rca.request-timeout is set; remove the old key"
                : DEPRECATED_REQUEST_TIMEOUT + " is deprecated: rename it to vpki.dc.rca.request-timeout (the timeout of the DC's "
                        + "requests to the RCA; in the EA and the AA vpki.dc.request-timeout keeps meaning their requests to the DC)");
    }
}
