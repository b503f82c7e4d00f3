package eu.vpki.ea;

import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.SoftwareKeyStore;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.common.testing.StreamedPost;
import eu.vpki.common.testing.TestTls;
import eu.vpki.ea.testing.SimulatedAa;
import eu.vpki.station.OperatorClient;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import eu.vpki.ea.testing.TestReplicas;
import eu.vpki.operator.OperatorApplication;
import eu.vpki.operator.web.OperatorCredentials;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The real services over real HTTP (the Operator over HTTPS, its port speaking TLS only): an Operator replica and an EA replica (Spring Boot, each with its
 * own Redis, one JGroups cluster in FIFO + SYNC). A station is registered through the Operator REST
 * API, enrols at the EA's enrolment endpoint, and an AA validates its EC at the EA's validation
 * endpoint; suspension through the Operator takes effect at the EA.
 */
class EaOperatorHttpTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);
    private static final StationMessages MESSAGES = new StationMessages(TestPki.RANDOM, new DataEncryption(TestPki.RANDOM));
    private static final Clock CLOCK = Clock.offset(Clock.systemUTC(), Duration.between(Instant.now(), TestPki.NOW));
    /** Plain HTTP to the EA, https (trusting the test CA) to the Operator, whose port speaks TLS only. */
    private static final HttpClient HTTP = TestTls.loopback().client();

    @TempDir
    static Path dir;
    static RedisFixture eaRedis;
    static RedisFixture operatorRedis;
    static ConfigurableApplicationContext operator;
    static ConfigurableApplicationContext ea;
    static String operatorUrl;
    static String eaUrl;

    @BeforeAll
    static void start() throws IOException {
        eaRedis = RedisFixture.start();
        operatorRedis = RedisFixture.start();
        Path keystore = dir.resolve("ea.p12");
        Path password = Files.writeString(dir.resolve("password"), "changeit\n");
        SoftwareKeyStore store = SoftwareKeyStore.openOrCreate(keystore, "changeit".toCharArray());
        store.put("ea-signing", PKI.eaKey, TestPki.RANDOM);
        store.put("ea-encryption", PKI.eaEncKey, TestPki.RANDOM);
        Path eaCert = Files.write(dir.resolve("ea.cert"), PKI.ea.encoded());
        Path rcaCert = Files.write(dir.resolve("rca.cert"), PKI.root.encoded());
        Path ctl = Files.write(dir.resolve("ctl.oer"), TrustLists.signCtl(new RcaCtl(true, 1, TestPki.NOW.plus(Duration.ofDays(7)),
                List.of(new CtlEntry.Ea(PKI.ea, "http://127.0.0.1/ea/enrolment", "http://127.0.0.1/ea/authorization-validation"),
                        new CtlEntry.Aa(PKI.aa, "http://127.0.0.1/aa/")),
                List.of()), TestPki.NOW, PKI.rootSigner(), PKI.root));
        Path credentials = Files.write(dir.resolve("operators"), List.of(OperatorCredentials.line("op-1", "token-1"),
                OperatorCredentials.line("op-2", "token-2")));
        int opPort = TestReplicas.freePort();
        int eaPort = TestReplicas.freePort();
        String hosts = "127.0.0.1[" + opPort + "],127.0.0.1[" + eaPort + "]";
        Map<String, Object> common = Map.of("server.port", "0", "server.address", "127.0.0.1",
                "vpki.replication.cluster-name", "http-" + opPort, "vpki.replication.order", "FIFO",
                "vpki.replication.propagation", "SYNC", "vpki.replication.expected-members", "2",
                "vpki.replication.initial-hosts", hosts, "vpki.replication.join-timeout", "500ms",
                "management.server.port", "0", "vpki.audit.dir", dir.resolve("audit").toString());
        // command-line arguments: they take precedence over the application.properties on the class path
        Map<String, Object> operatorOwn = new java.util.HashMap<>(Map.of(
                "spring.application.name", "vpki-operator", "vpki.replication.replica-id", "operator-0",
                "vpki.replication.bind-port", opPort, "vpki.redis.url", operatorRedis.url(),
                "vpki.operator.credentials-file", credentials.toString()));
        operatorOwn.putAll(TestTls.loopback().serverProperties());
        operator = new SpringApplicationBuilder(OperatorApplication.class).run(args(common, operatorOwn));
        ea = new SpringApplicationBuilder(EaApplication.class)
                .initializers(context -> context.getBeanFactory().registerSingleton("testClock", CLOCK)).run(args(common, Map.of(
                        "spring.application.name", "vpki-ea", "vpki.replication.replica-id", "ea-0",
                        "vpki.replication.bind-port", eaPort, "vpki.redis.url", eaRedis.url(),
                        "vpki.keystore.path", keystore.toString(), "vpki.keystore.password-file", password.toString(),
                        "vpki.ea.certificate-file", eaCert.toString(), "vpki.rca.certificate-file", rcaCert.toString(),
                        "vpki.ea.ctl-file", ctl.toString())));
        operatorUrl = "https://127.0.0.1:" + operator.getEnvironment().getProperty("local.server.port");
        eaUrl = "http://127.0.0.1:" + ea.getEnvironment().getProperty("local.server.port");
        // up to MERGE3's check interval and a merge if the second member started alone on a busy machine
        await().atMost(Duration.ofMinutes(2)).until(() -> ea.getBean(Replica.class).status().serving()
                && operator.getBean(Replica.class).status().serving());
    }

    @AfterAll
    static void stop() {
        if (ea != null) {
            ea.close();
        }
        if (operator != null) {
            operator.close();
        }
        eaRedis.stop();
        operatorRedis.stop();
    }

    @Test
    void registerEnrolValidateSuspend_overTheRealEndpoints() throws Exception {
        SimulatedStation station = SimulatedStation.generate("HTTP-1", EtsiCurve.BRAINPOOL_P256R1, TestPki.RANDOM);
        HttpResponse<byte[]> registered = post(operatorUrl + "/operator/v1/stations", "application/json",
                ("{\"stations\":[{\"canonicalId\":\"HTTP-1\",\"curve\":\"brainpoolP256r1\",\"publicKey\":\"" + station.canonicalKeyHex()
                        + "\",\"permissions\":[{\"psid\":36,\"sspType\":\"bitmap\",\"ssp\":\"01fffc\"}],\"maxEcValidity\":\"P30D\"}]}")
                        .getBytes());
        assertThat(registered.statusCode()).isEqualTo(201);

        StationMessages.Request enrolment = MESSAGES.enrolment(station, PKI.ea, CLOCK.instant());
        HttpResponse<byte[]> enrolled = post(eaUrl + "/ea/enrolment", "application/x-its-request", enrolment.body());
        assertThat(enrolled.statusCode()).isEqualTo(200);
        assertThat(enrolled.headers().firstValue("Content-Type")).contains("application/x-its-response");
        assertThat(MESSAGES.readEnrolment(enrolled.body(), enrolment, PKI.ea).ok()).isTrue();
        // the Operator's view of the station names the EC the EA just issued, once its replica applied it
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(new String(get(operatorUrl + "/operator/v1/stations/HTTP-1", "token-1").body()))
                        .contains("\"latestEc\":\"" + station.enrolmentCredential().hashedId8().toHex() + "\"")
                        .contains("\"latestEcStatus\":\"ACTIVE\""));
        assertThat(get(operatorUrl + "/operator/v1/stations/HTTP-1", "token-2").statusCode()).as("another operator's station")
                .isEqualTo(404);
        // the fleet listed page by page, as a back office does (OperatorClient follows the cursor)
        assertThat(new OperatorClient(HTTP, URI.create(operatorUrl), "token-1", Duration.ofSeconds(10)).listAll(2, null))
                .contains("HTTP-1");
        assertThat(new OperatorClient(HTTP, URI.create(operatorUrl), "token-2", Duration.ofSeconds(10)).listAll(2, null))
                .doesNotContain("HTTP-1");

        SimulatedAa aa = new SimulatedAa(PKI);
        OutgoingRequest validation = aa.forward(MESSAGES.authorization(station, PKI.ea, PKI.aa, List.of(SimulatedStation.CAM_DENM.get(0)),
                Protection.FULL, CLOCK.instant()), PKI.ea, CLOCK.instant());
        HttpResponse<byte[]> validated = post(eaUrl + "/ea/authorization-validation", "application/x-its-request", validation.body());
        assertThat(validated.statusCode()).isEqualTo(200);
        assertThat(aa.read(validated.body(), validation, PKI.ea).confirmed().orElseThrow().appPermissions())
                .containsExactly(SimulatedStation.CAM_DENM.get(0));

        // permission escalation (DENM was not permitted)
        OutgoingRequest greedy = aa.forward(
                MESSAGES.authorization(station, PKI.ea, PKI.aa, SimulatedStation.CAM_DENM, Protection.FULL, CLOCK.instant()),
                PKI.ea, CLOCK.instant());
        assertThat(aa.read(post(eaUrl + "/ea/authorization-validation", "application/x-its-request", greedy.body()).body(), greedy, PKI.ea)
                .responseCode()).isEqualTo(EtsiCodes.Validation.DENIEDPERMISSIONS);

        HttpResponse<byte[]> suspended = post(operatorUrl + "/operator/v1/stations/HTTP-1/suspend", "application/json", new byte[0]);
        assertThat(suspended.statusCode()).isEqualTo(200);
        OutgoingRequest after = aa.forward(MESSAGES.authorization(station, PKI.ea, PKI.aa, List.of(SimulatedStation.CAM_DENM.get(0)),
                Protection.FULL, CLOCK.instant()), PKI.ea, CLOCK.instant());
        assertThat(aa.read(post(eaUrl + "/ea/authorization-validation", "application/x-its-request", after.body()).body(), after, PKI.ea)
                .responseCode()).isEqualTo(EtsiCodes.Validation.DENIEDPERMISSIONS);
        StationMessages.Request reEnrolment = MESSAGES.reEnrolment(station, PKI.ea, CLOCK.instant());
        assertThat(MESSAGES.readEnrolment(post(eaUrl + "/ea/enrolment", "application/x-its-request", reEnrolment.body()).body(),
                reEnrolment, PKI.ea).responseCode()).isEqualTo(EtsiCodes.Enrolment.BADITSSTATUS);

        await().atMost(Duration.ofSeconds(30))
                .until(() -> ea.getBean(Replica.class).stateDigest().equals(operator.getBean(Replica.class).stateDigest()));
    }

    /**
     * A 1 GiB body, chunked or with a length header, to the EA and to the Operator (with and without a
     * valid token): 413 {@code OVERSIZE_INPUT} before the body is buffered; the client could hand over
     * only a small part of the gigabyte before the server closed the connection; the heap (after a
     * full GC, before and after) grew by less than 10 MB; the replicated state is unchanged.
     */
    @Test
    void oneGigabytePosts_areRefusedWith413_beforeBuffering_andTheHeapDoesNotGrow() throws Exception {
        String before = ea.getBean(Replica.class).stateDigest();
        long gigabyte = 1L << 30;
        long heapBefore = usedHeapAfterGc();

        List<StreamedPost> answers = List.of(
                StreamedPost.send(URI.create(eaUrl + "/ea/enrolment"), "application/x-its-request", gigabyte, null, Map.of()),
                StreamedPost.send(URI.create(eaUrl + "/ea/authorization-validation"), "application/x-its-request", gigabyte, null,
                        Map.of()),
                StreamedPost.send(URI.create(eaUrl + "/ea/enrolment"), "application/x-its-request", gigabyte, gigabyte, Map.of()),
                // a length header that lies: the stream still stops at the limit
                StreamedPost.send(URI.create(eaUrl + "/ea/enrolment"), "application/x-its-request", gigabyte, 100L, Map.of()),
                // an endless JSON string: valid for as long as it is read
                StreamedPost.send(URI.create(operatorUrl + "/operator/v1/stations"), "application/json",
                        "{\"stations\":[{\"canonicalId\":\"",
                        gigabyte, null, Map.of("Authorization", "Bearer token-1")),
                StreamedPost.send(URI.create(operatorUrl + "/operator/v1/stations"), "application/json", gigabyte, gigabyte,
                        Map.of("Authorization", "Bearer token-1")),
                StreamedPost.send(URI.create(operatorUrl + "/operator/v1/stations"), "application/json", gigabyte, null, Map.of()));

        long heapAfter = usedHeapAfterGc();
        for (int i = 0; i < answers.size(); i++) {
            StreamedPost a = answers.get(i);
            if (i == 3) {
                // 100 bytes declared and read: the EA answers them (not decryptable), the rest is never read as this request
                assertThat(a.status()).as("lying length").isEqualTo(400);
            } else if (i == answers.size() - 1) {
                // no token: a chunked body is refused by authentication before anything reads it
                assertThat(a.status()).as("no token").isEqualTo(401);
            } else {
                assertThat(a.status()).as("answer " + i).isEqualTo(413);
                assertThat(a.headers().get("content-type")).startsWith("application/problem+json");
                assertThat(a.body()).contains("\"code\":102", "\"error\":\"OVERSIZE_INPUT\"");
                assertThat(a.headers().get("connection")).isEqualTo("close");
            }
            assertThat(a.sent()).as("bytes the server let in, answer " + i).isLessThan(64L << 20);
        }
        assertThat(heapAfter - heapBefore).as("heap growth in bytes").isLessThan(10L << 20);
        assertThat(ea.getBean(Replica.class).stateDigest()).isEqualTo(before);
    }

    /** Used heap after a full collection: what is still held, not garbage waiting to be collected. */
    private static long usedHeapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        memory.gc();
        memory.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    @Test
    void badInputAtTheEaEndpoints_getTheRightAnswerAndChangeNothing() {
        String before = ea.getBean(Replica.class).stateDigest();

        HttpResponse<byte[]> garbage = post(eaUrl + "/ea/enrolment", "application/x-its-request", new byte[]{0x03, (byte) 0x81, 0x00});
        assertThat(garbage.statusCode()).isEqualTo(400);
        assertThat(garbage.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
        assertThat(new String(garbage.body())).contains("\"code\":100");
        assertThat(post(eaUrl + "/ea/authorization-validation", "application/x-its-request", new byte[10]).statusCode()).isEqualTo(400);
        assertThat(post(eaUrl + "/ea/enrolment", "application/json", "{}".getBytes()).statusCode()).isEqualTo(415);
        assertThat(post(eaUrl + "/ea/enrolment", "application/x-its-request", new byte[70_000]).statusCode()).isEqualTo(413);

        SimulatedStation unknown = SimulatedStation.generate("HTTP-UNKNOWN", EtsiCurve.NIST_P256, TestPki.RANDOM);
        StationMessages.Request request = MESSAGES.enrolment(unknown, PKI.ea, CLOCK.instant());
        HttpResponse<byte[]> refused = post(eaUrl + "/ea/enrolment", "application/x-its-request", request.body());
        assertThat(refused.statusCode()).isEqualTo(200);
        assertThat(MESSAGES.readEnrolment(refused.body(), request, PKI.ea).responseCode()).isEqualTo(EtsiCodes.Enrolment.UNKNOWNITS);
        // sent again: still unknownits (an unregistered sender is refused before the replay check, and never enters the cache)
        HttpResponse<byte[]> replayed = post(eaUrl + "/ea/enrolment", "application/x-its-request", request.body());
        assertThat(MESSAGES.readEnrolment(replayed.body(), request, PKI.ea).responseCode()).isEqualTo(EtsiCodes.Enrolment.UNKNOWNITS);

        TestPki otherPki = new TestPki(EtsiCurve.NIST_P256);
        SimulatedStation stranger = SimulatedStation.generate("HTTP-STRANGER", EtsiCurve.NIST_P256, TestPki.RANDOM);
        StationMessages.Request strangerAt;
        // an EC of this EA is needed to build the request; an AA outside the CTL forwards it
        SimulatedStation registered = SimulatedStation.generate("HTTP-2", EtsiCurve.NIST_P256, TestPki.RANDOM);
        assertThat(post(operatorUrl + "/operator/v1/stations", "application/json",
                ("{\"stations\":[{\"canonicalId\":\"HTTP-2\",\"curve\":\"nistP256\",\"publicKey\":\"" + registered.canonicalKeyHex()
                        + "\",\"permissions\":[{\"psid\":36,\"sspType\":\"bitmap\",\"ssp\":\"01fffc\"}],\"maxEcValidity\":\"P30D\"}]}")
                        .getBytes())
                .statusCode()).isEqualTo(201);
        StationMessages.Request enrolment = MESSAGES.enrolment(registered, PKI.ea, CLOCK.instant());
        assertThat(MESSAGES.readEnrolment(post(eaUrl + "/ea/enrolment", "application/x-its-request", enrolment.body()).body(),
                enrolment, PKI.ea).ok()).isTrue();
        strangerAt = MESSAGES.authorization(registered, PKI.ea, otherPki.aa, List.of(SimulatedStation.CAM_DENM.get(0)), Protection.FULL,
                CLOCK.instant());
        SimulatedAa outsider = new SimulatedAa(otherPki);
        OutgoingRequest fromOutsider = outsider.forward(strangerAt, PKI.ea, CLOCK.instant());
        assertThat(outsider.read(post(eaUrl + "/ea/authorization-validation", "application/x-its-request", fromOutsider.body()).body(),
                fromOutsider, PKI.ea).responseCode()).isEqualTo(EtsiCodes.Validation.INVALIDAA);
        assertThat(stranger.enrolmentCredential()).isNull();
        assertThat(ea.getBean(Replica.class).stateDigest()).as("only the registration and enrolment of HTTP-2 changed state")
                .isNotEqualTo(before);
    }

    @Test
    void health_onTheManagementPort_reportsTheReplicaAndItsRedis_andThePublicPortHasNoActuator() {
        for (ConfigurableApplicationContext service : List.of(ea, operator)) {
            String management = "http://127.0.0.1:" + service.getEnvironment().getProperty("local.management.port");
            HttpResponse<byte[]> health = get(management + "/actuator/health", "none");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(new String(health.body())).contains("\"replica\"", "\"state\":\"serving\"", "\"viewSize\":2", "\"redis\"");
            String publicUrl = (service == operator ? "https" : "http") + "://127.0.0.1:"
                    + service.getEnvironment().getProperty("local.server.port");
            assertThat(get(publicUrl + "/actuator/health", "none").statusCode()).isEqualTo(404);
        }
    }

    private static String[] args(Map<String, Object> common, Map<String, Object> own) {
        return java.util.stream.Stream.concat(common.entrySet().stream(), own.entrySet().stream())
                .map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
    }

    private static HttpResponse<byte[]> get(String url, String token) {
        return send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token).GET().build());
    }

    private static HttpResponse<byte[]> post(String url, String contentType, byte[] body) {
        return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", contentType)
                .header("Authorization", "Bearer token-1").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    private static HttpResponse<byte[]> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
