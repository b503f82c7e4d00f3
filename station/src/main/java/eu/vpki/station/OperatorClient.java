package eu.vpki.station;

import eu.vpki.common.etsi.ts103097.PsidSsp;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The Operator REST API ({@code /operator/v1}, docs/operator.md) as an operator's back office calls
 * it, on one Operator replica: register stations, change a station's permissions or status, read a
 * station presenting a read-your-writes token, list the fleet page by page. Every call answers the HTTP status, the version
 * token of a write ({@code X-Vpki-Version}) and the JSON body (the RFC 7807 problem of a refusal);
 * transport failures are thrown.
 */
public final class OperatorClient {
    static final String VERSION_HEADER = "X-Vpki-Version";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PROBLEM_TYPE_PREFIX = "urn:vpki:error:";

    private final HttpClient http;
    private final URI operator;
    private final String token;
    private final Duration timeout;

    /** A status change of {@code POST /stations/{id}/<action>}. */
    public enum StatusChange {
        SUSPEND("suspend"), REACTIVATE("reactivate"), REVOKE("revoke");

        private final String path;

        StatusChange(String path) {
            this.path = path;
        }
    }

    /**
     * What the Operator answered.
     *
     * @param status  HTTP status
     * @param version the write's version token, null if none
     * @param body    the JSON body (a problem for a refusal); an empty object if there was none
     */
    public record Answer(int status, String version, JsonNode body) {
        public boolean ok() {
            return status / 100 == 2;
        }

        /** The problem's error name ({@code type} without {@code urn:vpki:error:}), e.g. {@code replication-unavailable}; null if none. */
        public String problem() {
            JsonNode type = body.get("type");
            if (type == null || !type.asText().startsWith(PROBLEM_TYPE_PREFIX)) {
                return null;
            }
            return type.asText().substring(PROBLEM_TYPE_PREFIX.length());
        }

        /** The problem's detail text, or null. */
        public String problemDetail() {
            JsonNode detail = body.get("detail");
            return detail == null ? null : detail.asText();
        }
    }

    /**
     * @param operator the replica's base URL
     * @param token    the operator's bearer token
     * @param timeout  per request
     */
    public OperatorClient(HttpClient http, URI operator, String token, Duration timeout) {
        this.http = http;
        this.operator = operator;
        this.token = token;
        this.timeout = timeout;
    }

    public URI baseUrl() {
        return operator;
    }

    /** {@code POST /stations}: registers the stations (canonical id and key) with {@code permissions}, as one batch. */
    public Answer register(List<SimulatedStation> stations, List<PsidSsp> permissions, Duration maxEcValidity)
            throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode list = body.putArray("stations");
        for (SimulatedStation s : stations) {
            ObjectNode n = list.addObject();
            n.put("canonicalId", s.canonicalId());
            n.put("curve", s.curve().curveName());
            n.put("publicKey", s.canonicalKeyHex());
            n.set("permissions", permissions(permissions));
            n.put("maxEcValidity", "PT" + maxEcValidity.toHours() + "H");
        }
        return send(request("/operator/v1/stations", null).POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
    }

    /** {@code PUT /stations/{id}/permissions}. */
    public Answer changePermissions(String canonicalId, List<PsidSsp> permissions) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode();
        body.set("permissions", permissions(permissions));
        return send(request("/operator/v1/stations/" + canonicalId + "/permissions", null)
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
    }

    /** {@code POST /stations/{id}/suspend|reactivate|revoke}. */
    public Answer changeStatus(String canonicalId, StatusChange change) throws IOException, InterruptedException {
        return send(request("/operator/v1/stations/" + canonicalId + "/" + change.path, null).POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** {@code GET /stations/{id}}, presenting {@code version} (may be null) for read-your-writes. */
    public Answer read(String canonicalId, String version) throws IOException, InterruptedException {
        return send(request("/operator/v1/stations/" + canonicalId, version).GET());
    }

    /**
     * {@code GET /stations?cursor=&limit=}: one page of the fleet, from {@code cursor} (null for the first page) with
     * about {@code limit} ids; the body's {@code nextCursor} is the next page's cursor, absent after the last.
     */
    public Answer listPage(String cursor, int limit, String version) throws IOException, InterruptedException {
        String query = "?limit=" + limit + (cursor == null ? "" : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.US_ASCII));
        return send(request("/operator/v1/stations" + query, version).GET());
    }

    /**
     * The whole fleet, page by page ({@link #listPage}, {@code limit} ids a page): each registered id once, sorted.
     *
     * @throws IOException if a page is refused (its status and problem in the message)
     */
    public SortedSet<String> listAll(int limit, String version) throws IOException, InterruptedException {
        SortedSet<String> ids = new TreeSet<>();
        String cursor = null;
        do {
            Answer page = listPage(cursor, limit, version);
            if (!page.ok()) {
                throw new IOException("GET /operator/v1/stations answered " + page.status() + " " + page.problem());
            }
            page.body().path("canonicalIds").forEach(id -> ids.add(id.asText()));
            JsonNode next = page.body().get("nextCursor");
            cursor = next == null || next.isNull() ? null : next.asText();
        } while (cursor != null);
        return ids;
    }

    private HttpRequest.Builder request(String path, String version) {
        HttpRequest.Builder b = HttpRequest.newBuilder(operator.resolve(path)).timeout(timeout)
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json");
        if (version != null) {
            b.header(VERSION_HEADER, version);
        }
        return b;
    }

    private Answer send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = r.body() == null || r.body().isBlank() ? JSON.createObjectNode() : parse(r.body());
        return new Answer(r.statusCode(), r.headers().firstValue(VERSION_HEADER).orElse(null), body);
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (RuntimeException e) {
            ObjectNode n = JSON.createObjectNode();
            n.put("unreadable", body.length() > 200 ? body.substring(0, 200) : body);
            return n;
        }
    }

    private static ArrayNode permissions(List<PsidSsp> permissions) {
        ArrayNode perms = JSON.createArrayNode();
        for (PsidSsp p : permissions) {
            ObjectNode pn = perms.addObject();
            pn.put("psid", p.psid());
            if (p.kind() != PsidSsp.SspKind.NONE) {
                pn.put("sspType", p.kind() == PsidSsp.SspKind.BITMAP ? "bitmap" : "opaque");
                pn.put("ssp", HexFormat.of().formatHex(p.ssp()));
            }
        }
        return perms;
    }
}
