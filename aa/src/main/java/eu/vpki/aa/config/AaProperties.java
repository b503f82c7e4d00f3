package eu.vpki.aa.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code vpki.aa.*}: the AA certificate and key aliases, the access point, request limits, the
 * replay window, the AT policy and the EA client (docs/configuration.md); the audit log is the service
 * shell's ({@code vpki.audit.*}).
 */
@Validated
@ConfigurationProperties("vpki.aa")
public record AaProperties(
                           @NotNull Path certificateFile,
                           @DefaultValue("aa-signing") @NotBlank String signingKeyAlias,
                           @DefaultValue("aa-encryption") @NotBlank String encryptionKeyAlias,
                           @DefaultValue("http://127.0.0.1:8085/aa/authorization") @NotNull URI accessPoint,
                           @DefaultValue("16384") @Min(512) @Max(1048576) int maxRequestBytes,
                           @DefaultValue("5m") Duration requestWindow,
                           @DefaultValue("30s") Duration clockSkew,
                           @DefaultValue("false") boolean requireProofOfPossession,
                           @DefaultValue("true") boolean requireEncryptedEcSignature,
                           @DefaultValue("200000") @Min(1) int replayCacheEntries,
                           @DefaultValue @Valid At at,
                           @DefaultValue @Valid Ea ea) {

    /** {@code vpki.aa.at.*}: what an AT gets; its validity starts {@code backdate} before issuance. */
    public record At(@DefaultValue("7d") Duration validity, @DefaultValue("5m") Duration backdate, List<Long> psids,
                     List<Integer> regionCountries) {
        public At {
            psids = psids == null ? List.of() : List.copyOf(psids);
            regionCountries = regionCountries == null ? List.of() : List.copyOf(regionCountries);
        }
    }

    /**
     * Which HTTP client talks to EAs: NETTY on the access point server's event loops (a call and its answer stay on the
     * loop that read the station's request), or the JDK's (its own threads).
     */
    public enum Client { NETTY, JDK }

    /**
     * {@code vpki.aa.ea.*}: the HTTP client to EAs; per EA (HashedId8 hex to URLs) further replicas tried after the CTL's
     * {@code aaAccessPoint}, or access points that replace it and the replicas (an AA pointed at the EA replicas of its
     * own region).
     */
    public record Ea(@DefaultValue("NETTY") Client client,
                     @DefaultValue("1s") Duration connectTimeout,
                     @DefaultValue("3s") Duration requestTimeout,
                     @DefaultValue("64") @Min(1) int maxConnections,
                     Map<String, List<URI>> replicas,
                     Map<String, List<URI>> accessPoints) {
        public Ea {
            replicas = replicas == null ? Map.of() : Map.copyOf(replicas);
            accessPoints = accessPoints == null ? Map.of() : Map.copyOf(accessPoints);
        }
    }

    /** The path the authorization endpoint is served at: the path of {@link #accessPoint()}. */
    public String accessPointPath() {
        String path = accessPoint.getPath();
        return path == null || path.isEmpty() ? "/" : path;
    }
}
