package eu.vpki.aa;

import eu.vpki.aa.core.AaFixture;
import eu.vpki.aa.testing.LocalPki;
import eu.vpki.common.distribution.TrustListClient;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.AtResult;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.station.OperatorClient;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.context.ConfigurableApplicationContext;
import redis.clients.jedis.Jedis;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue #5 end to end, every service real and over HTTP: the RCA certifies two EAs and the AA; a DC
 * serves the CTL; EA "ea-sync" runs two replicas and an Operator in SYNC mode, EA "ea-async" one
 * replica and an Operator in ASYNC mode, each replica with its own Redis; two AA processes serve
 * the same AA certificate. Stations are registered through the Operator API, enrol at their EA and
 * ask both AAs for ATs in turn. Tests run in order: the last one stops an EA replica.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AuthorizationEndToEndTest {
    /** How long an ASYNC revocation may take to reach the EA replica (docs/aa.md). */
    static final Duration ASYNC_REVOCATION_BOUND = Duration.ofSeconds(5);

    static LocalPki pki;
    static LocalPki.Ea syncEa;
    static LocalPki.Ea asyncEa;
    static final int AA1_PORT = LocalPki.freePort();
    static final int AA2_PORT = LocalPki.freePort();
    static ConfigurableApplicationContext aa1;
    static ConfigurableApplicationContext aa2;
    static TrustListClient vehicle;
    static final List<EtsiCertificate> issued = new ArrayList<>();
    static final List<SimulatedStation> stations = new ArrayList<>();

    @BeforeAll
    static void deploy() {
        pki = new LocalPki();
        pki.startRcaAndDc();
        syncEa = pki.certifyEa("ea-sync", 2);
        asyncEa = pki.certifyEa("ea-async", 1);
        pki.certifyAa(aaUri(AA1_PORT));
        RcaCtl ctl = pki.publishCtlToEas(2, 1);
        assertThat(ctl.authorizationAuthorities()).singleElement()
                .satisfies(a -> assertThat(a.accessPoint()).isEqualTo(aaUri(AA1_PORT).toString()));
        pki.startCluster(syncEa, "SYNC");
        pki.startCluster(asyncEa, "ASYNC");
        String replica2 = "--vpki.aa.ea.replicas." + syncEa.certificate.hashedId8().toHex() + "=" + syncEa.validation(1);
        aa1 = pki.startAa(AA1_PORT, "aa-1", replica2);
        aa2 = pki.startAa(AA2_PORT, "aa-2", replica2);
        vehicle = pki.vehicleView();
    }

    @AfterAll
    static void tearDown() {
        if (pki != null) {
            pki.close();
        }
    }

    static URI aaUri(int port) {
        return URI.create("http://127.0.0.1:" + port + "/aa/authorization");
    }

    static SimulatedStation registeredAndEnrolled(String id, LocalPki.Ea ea) {
        SimulatedStation station = SimulatedStation.generate(id, EtsiCurve.NIST_P256, RANDOM);
        OperatorClient.Answer r = ea.register(station);
        assertThat(r.status()).as(r.body().toString()).isEqualTo(201);
        // ASYNC: the EA replica may apply the registration a moment after the Operator answered
        await().atMost(ASYNC_REVOCATION_BOUND).until(() -> ea.enrol(station, 0) == EtsiCodes.Enrolment.OK);
        stations.add(station);
        return station;
    }

    static HttpResponse<String> operator(LocalPki.Ea ea, String method, String path, String json) {
        return LocalPki.send(HttpRequest.newBuilder(ea.operator(path)).header("Authorization", "Bearer " + LocalPki.OPERATOR_TOKEN)
                .header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A fresh AT request of {@code station} to the AA, naming {@code ea} (CAM and DENM, PoP, EC signature encrypted for the EA). */
    static StationMessages.Request atRequest(SimulatedStation station, LocalPki.Ea ea) {
        return LocalPki.MESSAGES.authorization(station, ea.certificate, pki.aa, SimulatedStation.CAM_DENM, Protection.FULL, Instant.now());
    }

    static AtResult askFor(SimulatedStation station, LocalPki.Ea ea, int aaPort) {
        return askFor(atRequest(station, ea), aaPort);
    }

    static AtResult askFor(StationMessages.Request request, int aaPort) {
        AtResult result = LocalPki.authorize(aaUri(aaPort), request, pki.aa);
        result.authorizationTicket().ifPresent(issued::add);
        return result;
    }

    static double issuedBy(ConfigurableApplicationContext aa) {
        return aa.getBean(MeterRegistry.class).find("vpki.aa.tickets").tag("outcome", "issued").counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    @Test
    @Order(1)
    void atsFromTwoAaProcesses_chainToTheAaAndTheRca_withTheRequestedKeyAndConfirmedPermissions() {
        SimulatedStation station = registeredAndEnrolled("AA-E2E-1", syncEa);
        double before1 = issuedBy(aa1);
        double before2 = issuedBy(aa2);
        for (int i = 0; i < 4; i++) {
            StationMessages.Request request = atRequest(station, syncEa);
            AtResult result = askFor(request, i % 2 == 0 ? AA1_PORT : AA2_PORT);
            assertThat(result.responseCode()).isEqualTo(EtsiCodes.Authorization.OK);
            EtsiCertificate at = result.authorizationTicket().orElseThrow();
            assertThat(at.verificationKey()).isEqualTo(request.newKey().publicKey());
            assertThat(at.appPermissions()).containsExactlyElementsOf(SimulatedStation.CAM_DENM);
            assertThat(vehicle.current().validate(at, Instant.now())).containsExactly(at, pki.aa, pki.root);
        }
        assertThat(issuedBy(aa1) - before1).isEqualTo(2);
        assertThat(issuedBy(aa2) - before2).isEqualTo(2);
        assertThat(issued.stream().map(EtsiCertificate::hashedId8).distinct()).hasSize(4);
    }

    @Test
    @Order(2)
    void asyncEa_issuesToo() {
        SimulatedStation station = registeredAndEnrolled("AA-E2E-ASYNC-1", asyncEa);
        AtResult result = askFor(station, asyncEa, AA2_PORT);
        assertThat(result.responseCode()).isEqualTo(EtsiCodes.Authorization.OK);
        assertThat(vehicle.current().validate(result.authorizationTicket().orElseThrow(), Instant.now())).hasSize(3);
    }

    @Test
    @Order(3)
    void stationRevokedThroughTheOperator_sync_getsNoFurtherAt_immediately() {
        SimulatedStation station = registeredAndEnrolled("AA-E2E-REVOKE-SYNC", syncEa);
        assertThat(askFor(station, syncEa, AA1_PORT).ok()).isTrue();

        assertThat(operator(syncEa, "POST", "/stations/" + station.canonicalId() + "/revoke", null).statusCode()).isEqualTo(200);

        double before = issuedBy(aa1) + issuedBy(aa2);
        for (int port : new int[]{AA1_PORT, AA2_PORT}) {
            AtResult refused = askFor(station, syncEa, port);
            assertThat(refused.responseCode()).isEqualTo(EtsiCodes.Authorization.DENIEDPERMISSIONS);
            assertThat(refused.authorizationTicket()).isEmpty();
        }
        assertThat(issuedBy(aa1) + issuedBy(aa2)).isEqualTo(before);
    }

    @Test
    @Order(4)
    void stationRevokedThroughTheOperator_async_getsNoFurtherAt_withinTheBound() {
        SimulatedStation station = registeredAndEnrolled("AA-E2E-REVOKE-ASYNC", asyncEa);
        assertThat(askFor(station, asyncEa, AA2_PORT).ok()).isTrue();

        assertThat(operator(asyncEa, "POST", "/stations/" + station.canonicalId() + "/revoke", null).statusCode()).isEqualTo(200);

        await().atMost(ASYNC_REVOCATION_BOUND).pollInterval(Duration.ofMillis(50))
                .until(() -> askFor(station, asyncEa, AA1_PORT).responseCode() == EtsiCodes.Authorization.DENIEDPERMISSIONS);
        AtResult after = askFor(station, asyncEa, AA2_PORT);
        assertThat(after.responseCode()).isEqualTo(EtsiCodes.Authorization.DENIEDPERMISSIONS);
        assertThat(after.authorizationTicket()).isEmpty();
    }

    @Test
    @Order(5)
    void privacy_theAaRecordsNoStationIdentity_andNoEaStoresAnyAt() throws IOException {
        List<String> audit = new ArrayList<>();
        for (String instance : new String[]{"aa-1", "aa-2"}) {
            try (Stream<Path> files = Files.list(pki.auditDir(instance))) {
                for (Path f : files.toList()) {
                    audit.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
                }
            }
        }
        assertThat(audit).hasSizeGreaterThanOrEqualTo(issued.size())
                .allSatisfy(l -> assertThat(l).matches("\\S+Z (issued|refused) code=\\d+ at=([0-9A-F]{16}|-) ea=[0-9A-F]{16} reason=\\S+"));
        String auditText = String.join("\n", audit);
        for (EtsiCertificate at : issued) {
            assertThat(auditText).contains("issued code=0 at=" + at.hashedId8().toHex());
        }
        for (SimulatedStation s : stations) {
            assertThat(auditText).doesNotContain(s.canonicalId()).doesNotContainIgnoringCase(s.enrolmentCredential().hashedId8().toHex())
                    .doesNotContainIgnoringCase(s.canonicalKeyHex());
        }

        // every byte every EA replica (and Operator) stored: no AT, no AT digest, no AT key
        List<byte[]> stored = new ArrayList<>();
        for (LocalPki.Ea ea : List.of(syncEa, asyncEa)) {
            for (RedisFixture redis : ea.redis) {
                stored.addAll(everything(redis));
            }
        }
        assertThat(stored).isNotEmpty();
        for (EtsiCertificate at : issued) {
            for (byte[] trace : List.of(at.hashedId8().bytes(), at.verificationKey().compressed(), at.verificationKey().x(),
                    at.hashedId8().toHex().getBytes(StandardCharsets.US_ASCII),
                    HexFormat.of().formatHex(at.verificationKey().x()).getBytes(StandardCharsets.US_ASCII))) {
                assertThat(stored).noneMatch(value -> AaFixture.indexOf(value, trace) >= 0);
            }
        }
    }

    @Test
    @Order(6)
    void oneEaReplicaDown_theAaUsesTheOther() {
        SimulatedStation station = registeredAndEnrolled("AA-E2E-FAILOVER", syncEa);
        syncEa.replicas.get(0).close();
        for (int i = 0; i < 4; i++) {
            assertThat(askFor(station, syncEa, i % 2 == 0 ? AA1_PORT : AA2_PORT).responseCode()).isEqualTo(EtsiCodes.Authorization.OK);
        }
        double failures = Stream.of(aa1, aa2).mapToDouble(aa -> aa.getBean(MeterRegistry.class).find("vpki.aa.ea.failures")
                .counters().stream().mapToDouble(Counter::count).sum()).sum();
        assertThat(failures).as("the rotating first access point hit the stopped replica").isGreaterThanOrEqualTo(1);
    }

    /** Every key and value of a Redis, binary. */
    static List<byte[]> everything(RedisFixture redis) {
        List<byte[]> all = new ArrayList<>();
        try (Jedis jedis = redis.connect()) {
            for (byte[] key : jedis.keys("*".getBytes(StandardCharsets.US_ASCII))) {
                all.add(key);
                String type = jedis.type(key);
                switch (type) {
                    case "string" -> all.add(jedis.get(key));
                    case "hash" -> jedis.hgetAll(key).forEach((k, v) -> {
                        all.add(k);
                        all.add(v);
                    });
                    case "set" -> all.addAll(jedis.smembers(key));
                    case "list" -> all.addAll(jedis.lrange(key, 0, -1));
                    case "zset" -> all.addAll(jedis.zrange(key, 0, -1));
                    // the replicas' command logs: entries [id, [field, value, ...]]
                    case "stream" -> flatten(jedis.xrange(key, "-".getBytes(StandardCharsets.US_ASCII),
                            "+".getBytes(StandardCharsets.US_ASCII), Integer.MAX_VALUE), all);
                    default -> throw new IllegalStateException("unexpected Redis type " + type);
                }
            }
        }
        return all;
    }

    /** Every byte string in a nested Redis reply. */
    private static void flatten(Object reply, List<byte[]> into) {
        if (reply instanceof byte[] bytes) {
            into.add(bytes);
        } else if (reply instanceof List<?> list) {
            list.forEach(element -> flatten(element, into));
        }
    }
}
