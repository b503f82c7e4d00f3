package eu.vpki.loadclient.obu;

import eu.vpki.common.etsi.ts103097.PsidSsp;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

/**
 * Registers simulated stations through the Operator REST API ({@code POST /operator/v1/stations}),
 * in batches: canonical id, canonical public key, permitted AT permissions, maximum EC validity.
 * Returns the read-your-writes version of the last batch.
 */
public final class FleetRegistrar {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http;
    private final URI operator;
    private final String token;

    public FleetRegistrar(HttpClient http, URI operator, String token) {
        this.http = http;
        this.operator = operator;
        this.token = token;
    }

    public String register(List<SimulatedStation> stations, List<PsidSsp> permissions, Duration maxEcValidity, int batchSize)
            throws IOException, InterruptedException {
        String version = null;
        for (int from = 0; from < stations.size(); from += batchSize) {
            List<SimulatedStation> batch = stations.subList(from, Math.min(stations.size(), from + batchSize));
            ObjectNode body = JSON.createObjectNode();
            ArrayNode list = body.putArray("stations");
            for (SimulatedStation s : batch) {
                ObjectNode n = list.addObject();
                n.put("canonicalId", s.canonicalId());
                n.put("curve", s.curve().curveName());
                n.put("publicKey", HexFormat.of().formatHex(s.canonicalKey().publicKey().compressed()));
                ArrayNode perms = n.putArray("permissions");
                for (PsidSsp p : permissions) {
                    ObjectNode pn = perms.addObject();
                    pn.put("psid", p.psid());
                    if (p.kind() != PsidSsp.SspKind.NONE) {
                        pn.put("sspType", p.kind() == PsidSsp.SspKind.BITMAP ? "bitmap" : "opaque");
                        pn.put("ssp", HexFormat.of().formatHex(p.ssp()));
                    }
                }
                n.put("maxEcValidity", "PT" + maxEcValidity.toHours() + "H");
            }
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(operator.resolve("/operator/v1/stations"))
                    .timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 201) {
                throw new IOException("the Operator refused the registration of stations " + from + ".." + (from + batch.size() - 1)
                        + ": HTTP " + r.statusCode() + " " + r.body());
            }
            version = r.headers().firstValue("X-Vpki-Version").orElse(version);
        }
        return version;
    }
}
