package eu.vpki.dc.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.CertificateChecks;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.storage.AtomicFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Root CA certificates a DC trusts, from one of two bootstraps:
 * <ol>
 *   <li>certificate files given by the operator (COER), the primary way;</li>
 *   <li>a pinned HashedId8: the certificate is fetched once from the RCA ({@code GET {rca}/rca/certificate}),
 *       accepted only if its HashedId8 is the pinned one (so the channel need not be trusted), and
 *       saved under {@code {data-dir}/trust/{HEX}.cert}, so later starts need neither the RCA nor the network.</li>
 * </ol>
 * Either way a certificate must be a self-signed root with CRL (622) and CTL (624) permissions and
 * certIssuePermissions, as relying parties demand.
 */
public final class TrustedRoots {
    private static final Logger LOG = LoggerFactory.getLogger(TrustedRoots.class);

    private final Map<HashedId8, EtsiCertificate> roots;

    private TrustedRoots(Map<HashedId8, EtsiCertificate> roots) {
        this.roots = Map.copyOf(roots);
    }

    public static TrustedRoots of(List<EtsiCertificate> certificates) {
        Map<HashedId8, EtsiCertificate> m = new LinkedHashMap<>();
        for (EtsiCertificate c : certificates) {
            requireRoot(c);
            m.put(c.hashedId8(), c);
        }
        if (m.isEmpty()) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT,
                    "the DC trusts no Root CA: configure vpki.rca.certificate-file or vpki.dc.trusted-rca with vpki.rca.url");
        }
        return new TrustedRoots(m);
    }

    /**
     * @param certificateFiles RCA certificates (COER) to trust
     * @param pinned           HashedId8s to trust, fetched from {@code rcaUrl} if not saved yet
     * @param trustDir         where fetched certificates are saved
     */
    public static TrustedRoots bootstrap(List<Path> certificateFiles, List<HashedId8> pinned, URI rcaUrl, Path trustDir,
                                         HttpClient http, Duration timeout) {
        List<EtsiCertificate> certs = new ArrayList<>();
        for (Path f : certificateFiles) {
            try {
                certs.add(EtsiCertificate.decode(Files.readAllBytes(f)));
            } catch (IOException e) {
                throw new PkiException(ErrorCode.INVALID_ARGUMENT, "vpki.rca.certificate-file: cannot read " + f + ": " + e.getMessage(),
                        e);
            } catch (PkiException e) {
                throw new PkiException(e.code(), "vpki.rca.certificate-file: " + f + ": " + e.getMessage(), e);
            }
        }
        for (HashedId8 id : pinned) {
            if (certs.stream().anyMatch(c -> c.hashedId8().equals(id))) {
                continue;
            }
            Path saved = trustDir.resolve(id.toHex() + ".cert");
            EtsiCertificate c;
            if (Files.exists(saved)) {
                try {
                    c = EtsiCertificate.decode(Files.readAllBytes(saved));
                } catch (IOException e) {
                    throw new PkiException(ErrorCode.INTERNAL_ERROR, "cannot read " + saved + ": " + e.getMessage(), e);
                }
            } else {
                if (rcaUrl == null) {
                    throw new PkiException(ErrorCode.INVALID_ARGUMENT, "vpki.dc.trusted-rca " + id
                            + ": no saved certificate and no vpki.rca.url to fetch it from");
                }
                c = fetch(rcaUrl, http, timeout);
            }
            if (!c.hashedId8().equals(id)) {
                throw new PkiException(ErrorCode.NOT_TRUSTED, "vpki.dc.trusted-rca: the RCA certificate obtained is " + c.hashedId8()
                        + ", not the pinned " + id);
            }
            requireRoot(c);
            if (!Files.exists(saved)) {
                AtomicFiles.write(saved, c.encoded());
                LOG.info("pinned RCA certificate {} fetched from {} and saved to {}", id, rcaUrl, saved);
            }
            certs.add(c);
        }
        return of(certs);
    }

    private static EtsiCertificate fetch(URI rcaUrl, HttpClient http, Duration timeout) {
        URI uri = eu.vpki.common.distribution.DistributionPaths.join(rcaUrl, "rca/certificate");
        try {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(uri).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                throw new PkiException(ErrorCode.UNAVAILABLE, "GET " + uri + " answered " + r.statusCode());
            }
            return EtsiCertificate.decode(r.body());
        } catch (IOException e) {
            throw new PkiException(ErrorCode.UNAVAILABLE, "cannot fetch the RCA certificate from " + uri + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PkiException(ErrorCode.UNAVAILABLE, "interrupted fetching " + uri, e);
        }
    }

    static void requireRoot(EtsiCertificate c) {
        CertificateChecks.checkIssuedBy(c, null, null);
        if (!c.hasAppPermission(Psids.CRL) || !c.hasAppPermission(Psids.CTL) || !c.isCa()) {
            throw new PkiException(ErrorCode.INVALID_PROFILE, c + " is not a Root CA certificate (needs appPermissions 622 and 624 "
                    + "and certIssuePermissions)");
        }
    }

    public Optional<EtsiCertificate> get(HashedId8 id) {
        return Optional.ofNullable(roots.get(id));
    }

    public List<EtsiCertificate> all() {
        return List.copyOf(roots.values());
    }
}
