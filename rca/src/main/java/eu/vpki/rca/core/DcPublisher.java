package eu.vpki.rca.core;

import eu.vpki.common.distribution.DistributionPaths;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Pushes the CTL (full and delta) and the CRL to every DC: {@code PUT {dc}/publish/{RCA}/ctl},
 * {@code .../ctl-delta}, {@code .../crl} with the signed COER bytes. The lists carry the Root CA's
 * signature, which the DC verifies against the RCA certificate it trusts: that signature is the
 * authentication, no other credential is needed, and a forged or replayed-older list is refused.
 *
 * <p>A push runs on the given executor right after each change; {@link #pushPending()} (called
 * periodically) retries any DC that has not yet confirmed the current lists. A DC answering 409
 * (it already holds these or newer lists) counts as confirmed.
 */
public final class DcPublisher implements TrustListSink {
    private static final Logger LOG = LoggerFactory.getLogger(DcPublisher.class);

    private final List<URI> distributionCentres;
    private final HttpClient http;
    private final Duration timeout;
    private final Executor executor;
    private final MeterRegistry registry;
    private final Map<URI, PublishedLists> confirmed = new ConcurrentHashMap<>();
    private final Map<URI, Object> locks = new ConcurrentHashMap<>();
    private volatile PublishedLists latest;

    public DcPublisher(List<URI> distributionCentres, HttpClient http, Duration timeout, Executor executor, MeterRegistry registry) {
        this.distributionCentres = List.copyOf(distributionCentres);
        this.http = http;
        this.timeout = timeout;
        this.executor = executor;
        this.registry = registry;
    }

    @Override
    public void publish(PublishedLists lists) {
        latest = lists;
        for (URI dc : distributionCentres) {
            executor.execute(() -> push(dc));
        }
    }

    /** Pushes to every DC that has not confirmed the latest lists. @return how many DCs are still behind */
    public int pushPending() {
        int behind = 0;
        for (URI dc : distributionCentres) {
            if (!push(dc)) {
                behind++;
            }
        }
        return behind;
    }

    /** Whether {@code dc} confirmed the latest lists. */
    public boolean confirmed(URI dc) {
        PublishedLists l = latest;
        return l != null && l == confirmed.get(dc);
    }

    private boolean push(URI dc) {
        synchronized (locks.computeIfAbsent(dc, k -> new Object())) {
            PublishedLists lists = latest;
            if (lists == null || confirmed.get(dc) == lists) {
                return true;
            }
            String rca = lists.rca().hashedId8().toHex();
            try {
                put(DistributionPaths.join(dc, "publish/" + rca + "/ctl"), lists.ctl());
                put(DistributionPaths.join(dc, "publish/" + rca + "/ctl-delta"), lists.deltaCtl());
                put(DistributionPaths.join(dc, "publish/" + rca + "/crl"), lists.crl());
                confirmed.put(dc, lists);
                registry.counter("vpki.rca.publications", "dc", dc.toString(), "result", "ok").increment();
                LOG.info("published CTL {} and CRL of {} to {}", lists.ctlSequence(), lists.crlThisUpdate(), dc);
                return true;
            } catch (IOException | RuntimeException e) {
                registry.counter("vpki.rca.publications", "dc", dc.toString(), "result", "failed").increment();
                LOG.warn("publishing CTL {} to {} failed (will retry): {}", lists.ctlSequence(), dc, e.toString());
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    private void put(URI uri, byte[] body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout)
                .header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        int status = response.statusCode();
        if (status / 100 != 2 && status != 409) {
            throw new IOException("PUT " + uri + " answered " + status + ": " + response.body());
        }
    }
}
