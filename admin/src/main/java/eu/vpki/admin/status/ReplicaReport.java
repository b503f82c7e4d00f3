package eu.vpki.admin.status;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One replica's answer at {@code <management URL>/actuator/replication}, as the status table needs it, or why there
 * is none ({@link #error()}).
 *
 * @param url          the management base URL asked
 * @param error        why it could not be read; null when it was
 * @param replicaId    its replica id
 * @param state        its state in lower case ({@code serving}, {@code minority}, {@code gap}, {@code catching_up}, ...)
 * @param detail       why (the gate's reason)
 * @param origin       its current origin (incarnation)
 * @param view         its JGroups view id
 * @param coordinator  the view's coordinator
 * @param members      the members of its view, in view order
 * @param expected     the configured member count
 * @param missing      commands a member applied that it has not (its lag)
 * @param held         commands it holds back for a gap
 * @param queued       commands delivered and not yet applied
 * @param logCommands  commands in its command log; -1 unknown
 * @param redisUsed    its Redis's used memory in bytes; -1 unknown
 * @param redisMax     its Redis's maxmemory; 0 none
 * @param applied      its applied position per origin
 * @param certificates certificate name to seconds of validity left
 */
public record ReplicaReport(URI url, String error, String replicaId, String state, String detail, String origin, String view,
                            String coordinator, List<String> members, int expected, long missing, long held, long queued,
                            long logCommands, long redisUsed, long redisMax, Map<String, Long> applied,
                            Map<String, Long> certificates) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** An unreadable replica. */
    static ReplicaReport unreadable(URI url, String error) {
        return new ReplicaReport(url, error, "", "unreachable", error, "", "", "", List.of(), 0, -1, -1, -1, -1, -1, 0, Map.of(),
                Map.of());
    }

    /** Whether it was read and serves. */
    public boolean serving() {
        return error == null && "serving".equals(state);
    }

    /** Asks {@code url} (a management base URL, e.g. {@code http://127.0.0.1:9083}); never throws. */
    public static ReplicaReport fetch(HttpClient http, URI url, Duration timeout) {
        URI endpoint = URI.create(url.toString().replaceAll("/+$", "") + "/actuator/replication");
        try {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(endpoint).timeout(timeout).header("Accept", "application/json")
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                return unreadable(url, "HTTP " + answer.statusCode() + " from " + endpoint
                        + (answer.statusCode() == 404 ? " (not a replica, or its endpoint is not exposed)" : ""));
            }
            return parse(url, answer.body());
        } catch (IOException e) {
            return unreadable(url, e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return unreadable(url, "interrupted");
        } catch (RuntimeException e) {
            return unreadable(url, "unreadable answer: " + e.getMessage());
        }
    }

    /** Reads the endpoint's JSON ({@code ReplicationEndpoint.Report} of the service shell). */
    static ReplicaReport parse(URI url, String json) {
        JsonNode report = JSON.readTree(json);
        JsonNode replication = report.required("replication");
        JsonNode status = replication.required("status");
        List<String> members = new ArrayList<>();
        replication.path("members").forEach(member -> members.add(member.path("replicaId").asText()));
        Map<String, Long> applied = new LinkedHashMap<>();
        replication.path("origins").forEach(origin -> applied.put(origin.path("origin").asText(), origin.path("applied").asLong()));
        long log = replication.path("view").asText().isEmpty() ? -1 : 0; // no member: its figures are unknown
        for (JsonNode origin : replication.path("origins")) {
            long length = origin.path("logLength").asLong(-1);
            log = log < 0 || length < 0 ? -1 : log + length;
        }
        JsonNode redis = replication.path("redis");
        Map<String, Long> certificates = new LinkedHashMap<>();
        report.path("certificates").forEach(c -> certificates.put(c.path("name").asText(), c.path("remainingSeconds").asLong()));
        return new ReplicaReport(url, null, status.path("replicaId").asText(),
                status.path("state").asText().toLowerCase(java.util.Locale.ROOT), status.path("detail").asText(),
                status.path("origin").asText(), replication.path("view").asText(), replication.path("coordinator").asText(), members,
                status.path("expectedMembers").asInt(), status.path("missingCommands").asLong(), status.path("heldCommands").asLong(),
                replication.path("queuedCommands").asLong(), log, redis.isObject() ? redis.path("usedBytes").asLong() : -1,
                redis.isObject() ? redis.path("maxBytes").asLong() : 0, applied, certificates);
    }
}
