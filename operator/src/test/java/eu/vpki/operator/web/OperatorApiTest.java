package eu.vpki.operator.web;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.testing.PublishedFile;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.common.testing.TestPorts;
import eu.vpki.common.testing.TestTls;
import eu.vpki.operator.OperatorApplication;
import eu.vpki.shell.openapi.UndeclaredProblems;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Operator REST API over real HTTPS (its port speaks TLS only, as in the local cluster), with a
 * real Redis and a one-member JGroups replica.
 */
@SpringBootTest(classes = OperatorApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OperatorApiTest {
    private static final RedisFixture REDIS = RedisFixture.start();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = TestTls.loopback().client();
    private static final SecureRandom RANDOM = new SecureRandom();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        Path credentials = Files.createTempFile("operators", ".txt");
        Files.write(credentials, List.of(OperatorCredentials.line("op-1", "token-1"), OperatorCredentials.line("op-2", "token-2"),
                OperatorCredentials.line("op-3", "token-3")));
        int jgroups = freePort();
        registry.add("vpki.redis.url", REDIS::url);
        registry.add("vpki.operator.credentials-file", credentials::toString);
        registry.add("vpki.operator.max-batch", () -> "5");
        registry.add("vpki.operator.read-wait", () -> "200ms");
        registry.add("vpki.replication.cluster-name", () -> "operator-api-" + jgroups);
        registry.add("vpki.replication.replica-id", () -> "op-api");
        registry.add("vpki.replication.bind-port", () -> jgroups);
        registry.add("vpki.replication.initial-hosts", () -> "127.0.0.1[" + jgroups + "]");
        registry.add("vpki.replication.join-timeout", () -> "300ms");
        registry.add("server.address", () -> "127.0.0.1");
        TestTls.loopback().serverProperties().forEach((k, v) -> registry.add(k, () -> v));
        registry.add("vpki.audit.dir", () -> credentials.getParent().resolve("operator-api-audit-" + jgroups).toString());
    }

    @Autowired
    UndeclaredProblems undeclaredProblems;

    /** The API answered only problems its OpenAPI description lists (the shell's UndeclaredProblems). */
    @AfterEach
    void everyAnsweredProblemIsDescribed() {
        assertThat(undeclaredProblems.take()).as("problems the published OpenAPI does not list").isEmpty();
    }

    @AfterAll
    static void stopRedis() {
        REDIS.stop();
    }

    @Test
    void openApiDescription_isServedWithoutToken_andIsThePublishedOne() {
        HttpResponse<String> r = send("GET", "/openapi.yaml", null, null, null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).startsWith("openapi: 3.1").contains("/operator/v1/stations/{id}/revoke", "X-Vpki-Version",
                "application/problem+json", "scheme: bearer");
        PublishedFile.check(Path.of("../docs/openapi/operator.yaml"), r.body());
    }

    @Test
    void plainHttpWithAValidToken_getsNoSuccess_andReadsNothing() throws Exception {
        send("POST", "/operator/v1/stations", "token-1", null, batch(station("API-PLAIN", "nistP256")));
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/operator/v1/stations/API-PLAIN"))
                .header("Authorization", "Bearer token-1").build(), HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).as("the port speaks TLS only: Tomcat refuses the plain request").isEqualTo(400);
        assertThat(r.body()).doesNotContain("API-PLAIN");
    }

    @Test
    void register_thenReadWithTheVersionToken() {
        HttpResponse<String> w = send("POST", "/operator/v1/stations", "token-1", null, batch(station("API-1", "nistP256")));
        assertThat(w.statusCode()).isEqualTo(201);
        String version = w.headers().firstValue("X-Vpki-Version").orElseThrow();
        assertThat(json(w).get("version").asString()).isEqualTo(version);

        HttpResponse<String> r = send("GET", "/operator/v1/stations/API-1", "token-1", version, null);
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode station = json(r);
        assertThat(station.get("status").asString()).isEqualTo("ACTIVE");
        assertThat(station.get("curve").asString()).isEqualTo("nistP256");
        assertThat(station.get("permissions").get(0).get("ssp").asString()).isEqualTo("01fffc");
        assertThat(json(send("GET", "/operator/v1/stations", "token-1", version, null)).get("canonicalIds").toString()).contains("API-1");
    }

    @Test
    void malformedKey_isA400NamingTheField_andNothingOfTheBatchIsApplied() {
        String bad = "{\"canonicalId\":\"API-BAD\",\"curve\":\"brainpoolP256r1\",\"publicKey\":\"02abcd\","
                + "\"permissions\":[{\"psid\":36,\"sspType\":\"bitmap\",\"ssp\":\"01fffc\"}],\"maxEcValidity\":\"P30D\"}";
        HttpResponse<String> r = send("POST", "/operator/v1/stations", "token-1", null,
                "{\"stations\":[" + station("API-GOOD", "nistP256") + "," + bad + "]}");

        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
        JsonNode problem = json(r);
        assertThat(problem.get("code").asInt()).isEqualTo(313);
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("stations[1].publicKey");
        assertThat(send("GET", "/operator/v1/stations/API-GOOD", "token-1", null, null).statusCode()).isEqualTo(404);
    }

    @Test
    void unknownPsid_duplicateIds_oversizeBatch_andBadJson_areProblems() {
        String unknownPsid = station("API-PSID", "nistP256").replace("\"psid\":36,\"sspType\":\"bitmap\",\"ssp\":\"01fffc\"",
                "\"psid\":4242");
        JsonNode p = json(send("POST", "/operator/v1/stations", "token-1", null, batch(unknownPsid)));
        assertThat(p.get("errors").get(0).get("field").asString()).isEqualTo("stations[0].permissions[0].psid");
        assertThat(p.get("errors").get(0).get("error").asString()).isEqualTo("UNKNOWN_PSID");

        HttpResponse<String> dup = send("POST", "/operator/v1/stations", "token-1", null,
                "{\"stations\":[" + station("API-DUP", "nistP256") + "," + station("API-DUP", "brainpoolP384r1") + "]}");
        assertThat(dup.statusCode()).isEqualTo(409);
        assertThat(json(dup).get("errors").get(0).get("field").asString()).isEqualTo("stations[1].canonicalId");

        String six = "{\"stations\":[" + String.join(",", List.of(station("S1", "nistP256"), station("S2", "nistP256"),
                station("S3", "nistP256"), station("S4", "nistP256"), station("S5", "nistP256"), station("S6", "nistP256"))) + "]}";
        HttpResponse<String> big = send("POST", "/operator/v1/stations", "token-1", null, six);
        assertThat(big.statusCode()).isEqualTo(413);
        assertThat(json(big).get("errors").get(0).get("field").asString()).isEqualTo("stations");
        assertThat(send("GET", "/operator/v1/stations/S1", "token-1", null, null).statusCode()).isEqualTo(404);

        HttpResponse<String> garbage = send("POST", "/operator/v1/stations", "token-1", null,
                "{\"stations\":[{\"permissions\":[{\"psid\":\"x\"}]}]}");
        assertThat(garbage.statusCode()).isEqualTo(400);
        assertThat(json(garbage).get("errors").get(0).get("field").asString()).isEqualTo("stations[0].permissions[0].psid");
    }

    @Test
    void everyCallNeedsAToken_andAnOperatorSeesOnlyItsOwnFleet() {
        assertThat(send("POST", "/operator/v1/stations", null, null, batch(station("API-X", "nistP256"))).statusCode()).isEqualTo(401);
        assertThat(send("GET", "/operator/v1/stations", "wrong", null, null).statusCode()).isEqualTo(401);
        String version = send("POST", "/operator/v1/stations", "token-1", null, batch(station("API-MINE", "nistP256")))
                .headers().firstValue("X-Vpki-Version").orElseThrow();

        assertThat(send("GET", "/operator/v1/stations/API-MINE", "token-2", version, null).statusCode()).isEqualTo(404);
        assertThat(send("POST", "/operator/v1/stations/API-MINE/revoke", "token-2", null, null).statusCode()).isEqualTo(404);
        assertThat(json(send("GET", "/operator/v1/stations", "token-2", version, null)).get("canonicalIds").size()).isZero();
        assertThat(json(send("GET", "/operator/v1/stations/API-MINE", "token-1", version, null)).get("status").asString())
                .isEqualTo("ACTIVE");
    }

    @Test
    void suspendReactivateRevoke_andChangePermissions() {
        send("POST", "/operator/v1/stations", "token-1", null, batch(station("API-LIFE", "brainpoolP384r1")));
        assertThat(send("POST", "/operator/v1/stations/API-LIFE/suspend", "token-1", null, null).statusCode()).isEqualTo(200);
        assertThat(send("POST", "/operator/v1/stations/API-LIFE/suspend", "token-1", null, null).statusCode()).isEqualTo(409);
        assertThat(send("POST", "/operator/v1/stations/API-LIFE/reactivate", "token-1", null, null).statusCode()).isEqualTo(200);
        HttpResponse<String> perms = send("PUT", "/operator/v1/stations/API-LIFE/permissions", "token-1", null,
                "{\"permissions\":[{\"psid\":37,\"sspType\":\"bitmap\",\"ssp\":\"01ffffff\"}]}");
        assertThat(perms.statusCode()).isEqualTo(200);
        HttpResponse<String> revoke = send("POST", "/operator/v1/stations/API-LIFE/revoke", "token-1", null, null);
        String version = revoke.headers().firstValue("X-Vpki-Version").orElseThrow();

        JsonNode station = json(send("GET", "/operator/v1/stations/API-LIFE", "token-1", version, null));
        assertThat(station.get("status").asString()).isEqualTo("REVOKED");
        assertThat(station.get("permissions").get(0).get("psid").asLong()).isEqualTo(37);
        assertThat(send("POST", "/operator/v1/stations/API-LIFE/reactivate", "token-1", null, null).statusCode()).isEqualTo(409);
    }

    /**
     * Issue #38: the listing is paged with a cursor, each page bounded by the limit (an SSCAN of the fleet set),
     * never the whole fleet in one answer (before: all 1,002,000 ids, 20.9 MB, in one). 300 ids (more than Redis's
     * compact set encoding holds), 50 a page; the pages together hold each id.
     */
    @Test
    void list_pagesTheFleetWithACursor_eachPageBoundedByTheLimit() {
        String[] ids = new String[300];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = String.format(java.util.Locale.ROOT, "PAGE-%03d", i);
        }
        try (redis.clients.jedis.Jedis jedis = REDIS.connect()) {
            jedis.sadd(eu.vpki.common.fleet.FleetKeys.operator("op-3"), ids); // the fleet set alone is what the listing reads
        }
        java.util.Set<String> seen = new java.util.TreeSet<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = json(send("GET", "/operator/v1/stations?limit=50" + (cursor == null ? "" : "&cursor=" + cursor), "token-3",
                    null, null));
            assertThat(page.get("canonicalIds").size()).as("page %d", pages).isBetween(0, 100);
            page.get("canonicalIds").forEach(id -> seen.add(id.asString()));
            cursor = page.hasNonNull("nextCursor") ? page.get("nextCursor").asString() : null;
            pages++;
        } while (cursor != null && pages < 1_000);
        assertThat(seen).containsExactlyInAnyOrder(ids);
        assertThat(pages).isGreaterThan(3);

        assertThat(send("GET", "/operator/v1/stations?limit=0", "token-3", null, null).statusCode()).isEqualTo(400);
        assertThat(send("GET", "/operator/v1/stations?limit=10001", "token-3", null, null).statusCode()).isEqualTo(400);
        assertThat(send("GET", "/operator/v1/stations?cursor=x1", "token-3", null, null).statusCode()).isEqualTo(400);
    }

    @Test
    void readWithAVersionThisReplicaNeverApplied_is503WithRetryAfter() {
        HttpResponse<String> r = send("GET", "/operator/v1/stations", "token-1", "12345@another-replica", null);
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.headers().firstValue("Retry-After")).contains("1");
        assertThat(json(r).get("code").asInt()).isEqualTo(702);
    }

    static String station(String id, String curve) {
        String key = HexFormat.of().formatHex(EtsiKeyPair.generate(EtsiCurve.parse(curve), RANDOM).publicKey().compressed());
        return "{\"canonicalId\":\"" + id + "\",\"curve\":\"" + curve + "\",\"publicKey\":\"" + key + "\","
                + "\"permissions\":[{\"psid\":36,\"sspType\":\"bitmap\",\"ssp\":\"01fffc\"}],\"maxEcValidity\":\"P365D\","
                + "\"region\":{\"countries\":[276,250]}}";
    }

    static String batch(String... stations) {
        return "{\"stations\":[" + String.join(",", stations) + "]}";
    }

    private HttpResponse<String> send(String method, String path, String token, String version, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (version != null) {
            b.header("X-Vpki-Version", version);
        }
        try {
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode json(HttpResponse<String> r) {
        return JSON.readTree(r.body());
    }

    private static int freePort() {
        return TestPorts.free();
    }
}
