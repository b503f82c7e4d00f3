package eu.vpki.dc.config;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code vpki.dc.*} as the DC reads it (see docs/configuration.md).
 *
 * @param dataDir        where the lists (and fetched pinned RCA certificates) are kept
 * @param trustedRca     HashedId8s (hex) of RCAs to trust by pinning, fetched once from {@code vpki.rca.url}
 * @param pullInterval   how often the lists are pulled from {@code vpki.rca.url} (when set)
 * @param requestTimeout timeout of requests to the RCA
 * @param urls           not used by the DC (the RCA's and AA's list of DCs); bound here only so the key is known
 * @param maxListBytes   largest list body the DC takes at {@code /publish/**} (413 beyond, before it is buffered)
 */
@Validated
@ConfigurationProperties("vpki.dc")
public record DcProperties(@DefaultValue("./data/dc") @NotNull Path dataDir, @DefaultValue List<String> trustedRca,
                           @DefaultValue("PT5M") @NotNull Duration pullInterval,
                           @DefaultValue("PT10S") @NotNull Duration requestTimeout,
                           @DefaultValue List<String> urls,
                           @DefaultValue("4MB") @NotNull DataSize maxListBytes) {
}
