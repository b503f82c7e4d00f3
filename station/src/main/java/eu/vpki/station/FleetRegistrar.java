package eu.vpki.station;

import eu.vpki.common.etsi.ts103097.PsidSsp;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;

/**
 * Registers simulated stations through the Operator REST API ({@code POST /operator/v1/stations},
 * {@link OperatorClient}), in batches: canonical id, canonical public key, permitted AT permissions,
 * maximum EC validity. Returns the read-your-writes version of the last batch.
 */
public final class FleetRegistrar {
    private final OperatorClient api;

    public FleetRegistrar(HttpClient http, URI operator, String token) {
        this.api = new OperatorClient(http, operator, token, Duration.ofSeconds(60));
    }

    public String register(List<SimulatedStation> stations, List<PsidSsp> permissions, Duration maxEcValidity, int batchSize)
            throws IOException, InterruptedException {
        String version = null;
        for (int from = 0; from < stations.size(); from += batchSize) {
            List<SimulatedStation> batch = stations.subList(from, Math.min(stations.size(), from + batchSize));
            OperatorClient.Answer r = api.register(batch, permissions, maxEcValidity);
            if (r.status() != 201) {
                throw new IOException("the Operator refused the registration of stations " + from + ".." + (from + batch.size() - 1)
                        + ": HTTP " + r.status() + " " + r.body());
            }
            version = r.version() != null ? r.version() : version;
        }
        return version;
    }
}
