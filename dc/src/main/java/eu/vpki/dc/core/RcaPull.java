package eu.vpki.dc.core;

import eu.vpki.common.distribution.DistributionPaths;
import eu.vpki.common.error.PkiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Pulls the current lists from the Root CA ({@code GET {rca}/rca/ctl}, {@code /rca/ctl/delta},
 * {@code /rca/crl}) into the DC: how a DC that starts empty recovers, and a periodic safety net for
 * lost pushes. Pulled lists go through the same verification as pushed ones.
 */
public final class RcaPull {
    private static final Logger LOG = LoggerFactory.getLogger(RcaPull.class);

    private final URI rcaUrl;
    private final DistributionCentre dc;
    private final HttpClient http;
    private final Duration timeout;

    public RcaPull(URI rcaUrl, DistributionCentre dc, HttpClient http, Duration timeout) {
        this.rcaUrl = rcaUrl;
        this.dc = dc;
        this.http = http;
        this.timeout = timeout;
    }

    /** @return whether every list was fetched and is held (accepted or already there) */
    public boolean pull() {
        boolean ok = true;
        for (var entry : new Object[][]{{ListKind.CTL, "rca/ctl"}, {ListKind.DELTA_CTL, "rca/ctl/delta"}, {ListKind.CRL, "rca/crl"}}) {
            ListKind kind = (ListKind) entry[0];
            URI uri = DistributionPaths.join(rcaUrl, (String) entry[1]);
            try {
                HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(uri).timeout(timeout).GET().build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() != 200) {
                    throw new IOException("answered " + r.statusCode());
                }
                dc.accept(kind, r.body(), null);
            } catch (PkiException e) {
                if (e.code() != eu.vpki.common.error.ErrorCode.STALE_DATA) {
                    ok = false;
                    LOG.warn("{} pulled from {} refused: {}", kind, uri, e.getMessage());
                }
            } catch (IOException e) {
                ok = false;
                LOG.warn("pulling {} from {} failed: {}", kind, uri, e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return ok;
    }
}
