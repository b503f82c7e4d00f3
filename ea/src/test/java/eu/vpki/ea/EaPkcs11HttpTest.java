package eu.vpki.ea;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.pkcs11.KeyCeremony;
import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.ts103097.Validity;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.common.testing.SoftHsm;
import eu.vpki.common.testing.TestTls;
import eu.vpki.ea.testing.SimulatedAa;
import eu.vpki.ea.testing.TestReplicas;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.operator.OperatorApplication;
import eu.vpki.operator.web.OperatorCredentials;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The EA with its signing and encryption keys in a real SoftHSM2 token (issue #36), over real HTTP with an
 * Operator replica: a station registers, enrols and is validated for an AT, every EA signature and
 * decryption done in the token; then the token is removed while the EA serves: health DOWN, no EC issued.
 */
@Tag("softhsm")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EaPkcs11HttpTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);
    private static final Clock CLOCK = Clock.offset(Clock.systemUTC(), Duration.between(Instant.now(), TestPki.NOW));
    private static final HttpClient HTTP = TestTls.loopback().client();
    private static final String TOKEN = "ea-http-test";
    private static final StationMessages MESSAGES = new StationMessages(TestPki.RANDOM, new DataEncryption(TestPki.RANDOM));

    @TempDir
    static Path dir;
    static RedisFixture eaRedis;
    static RedisFixture operatorRedis;
    static ConfigurableApplicationContext operator;
    static ConfigurableApplicationContext ea;
    static EtsiCertificate eaCert;
    static String operatorUrl;
    static String eaUrl;
    static String eaHealth;

    @BeforeAll
    static void start() throws IOException {
        Pkcs11Settings settings = SoftHsm.createToken(TOKEN);
        try (KeyCeremony ceremony = KeyCeremony.open(settings, CLOCK, TestPki.RANDOM)) {
            var signing = ceremony.generate("ea-signing", EtsiCurve.BRAINPOOL_P256R1, KeyCeremony.Purpose.SIGNING);
            var encryption = ceremony.generate("ea-encryption", EtsiCurve.BRAINPOOL_P256R1, KeyCeremony.Purpose.ENCRYPTION);
            eaCert = CertificateIssuer.issue(CertificateProfiles.enrolmentAuthority("ea.token.test",
                    Validity.of(TestPki.NOW, Validity.Unit.YEARS, 1), signing.publicKey(), encryption.publicKey(), null),
                    PKI.root, PKI.rootSigner());
        }
        eaRedis = RedisFixture.start();
        operatorRedis = RedisFixture.start();
        Path pin = Files.writeString(dir.resolve("pin"), SoftHsm.PIN + "\n");
        Path eaCertFile = Files.write(dir.resolve("ea.cert"), eaCert.encoded());
        Path rcaCert = Files.write(dir.resolve("rca.cert"), PKI.root.encoded());
        Path ctl = Files.write(dir.resolve("ctl.oer"), TrustLists.signCtl(new RcaCtl(true, 1, TestPki.NOW.plus(Duration.ofDays(7)),
                List.of(new CtlEntry.Ea(eaCert, "http://127.0.0.1/ea/enrolment", "http://127.0.0.1/ea/authorization-validation"),
                        new CtlEntry.Aa(PKI.aa, "http://127.0.0.1/aa/")),
                List.of()), TestPki.NOW, PKI.rootSigner(), PKI.root));
        Path credentials = Files.write(dir.resolve("operators"), List.of(OperatorCredentials.line("op-1", "token-1")));
        int opPort = TestReplicas.freePort();
        int eaPort = TestReplicas.freePort();
        String hosts = "127.0.0.1[" + opPort + "],127.0.0.1[" + eaPort + "]";
        Map<String, Object> common = Map.of("server.port", "0", "server.address", "127.0.0.1",
                "vpki.replication.cluster-name", "hsm-" + opPort, "vpki.replication.order", "FIFO",
                "vpki.replication.propagation", "SYNC", "vpki.replication.expected-members", "2",
                "vpki.replication.initial-hosts", hosts, "vpki.replication.join-timeout", "500ms",
                "management.server.port", "0", "vpki.audit.dir", dir.resolve("audit").toString());
        Map<String, Object> operatorOwn = new HashMap<>(Map.of(
                "spring.application.name", "vpki-operator", "vpki.replication.replica-id", "operator-0",
                "vpki.replication.bind-port", opPort, "vpki.redis.url", operatorRedis.url(),
                "vpki.operator.credentials-file", credentials.toString()));
        operatorOwn.putAll(TestTls.loopback().serverProperties());
        operator = new SpringApplicationBuilder(OperatorApplication.class).run(args(common, operatorOwn));
        Map<String, Object> eaOwn = new HashMap<>(Map.of(
                "spring.application.name", "vpki-ea", "vpki.replication.replica-id", "ea-0",
                "vpki.replication.bind-port", eaPort, "vpki.redis.url", eaRedis.url(),
                "vpki.ea.certificate-file", eaCertFile.toString(), "vpki.rca.certificate-file", rcaCert.toString(),
                "vpki.ea.ctl-file", ctl.toString()));
        eaOwn.putAll(Map.of("vpki.keystore.backend", "pkcs11", "vpki.keystore.pkcs11.library", settings.library().toString(),
                "vpki.keystore.pkcs11.slot", settings.slot(), "vpki.keystore.pkcs11.pin-file", pin.toString()));
        ea = new SpringApplicationBuilder(EaApplication.class)
                .initializers(context -> context.getBeanFactory().registerSingleton("testClock", CLOCK)).run(args(common, eaOwn));
        operatorUrl = "https://127.0.0.1:" + operator.getEnvironment().getProperty("local.server.port");
        eaUrl = "http://127.0.0.1:" + ea.getEnvironment().getProperty("local.server.port");
        eaHealth = "http://127.0.0.1:" + ea.getEnvironment().getProperty("local.management.port") + "/actuator/health";
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
        if (eaRedis != null) {
            eaRedis.stop();
        }
        if (operatorRedis != null) {
            operatorRedis.stop();
        }
    }

    @Test
    @Order(1)
    void registerEnrolValidate_withTheEasKeysInTheToken() {
        assertThat(get(eaHealth).statusCode()).isEqualTo(200);
        SimulatedStation station = SimulatedStation.generate("HSM-1", EtsiCurve.BRAINPOOL_P256R1, TestPki.RANDOM);
        assertThat(post(operatorUrl + "/operator/v1/stations", "application/json",
                ("{\"stations\":[{\"canonicalId\":\"HSM-1\",\"curve\":\"brainpoolP256r1\",\"publicKey\":\"" + station.canonicalKeyHex()
                        + "\",\"permissions\":[{\"psid\":36,\"sspType\":\"bitmap\",\"ssp\":\"01fffc\"}],\"maxEcValidity\":\"P30D\"}]}")
                        .getBytes())
                .statusCode()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(10)).until(() -> ea.getBean(Replica.class).stateDigest()
                .equals(operator.getBean(Replica.class).stateDigest()));

        StationMessages.Request enrolment = MESSAGES.enrolment(station, eaCert, CLOCK.instant());
        HttpResponse<byte[]> enrolled = post(eaUrl + "/ea/enrolment", "application/x-its-request", enrolment.body());
        assertThat(enrolled.statusCode()).isEqualTo(200);
        assertThat(MESSAGES.readEnrolment(enrolled.body(), enrolment, eaCert).ok()).isTrue();
        assertThat(station.enrolmentCredential().issuerId()).contains(eaCert.hashedId8());
        assertThat(station.enrolmentCredential().signatureVerifies(eaCert)).isTrue();

        SimulatedAa aa = new SimulatedAa(PKI);
        OutgoingRequest validation = aa.forward(MESSAGES.authorization(station, eaCert, PKI.aa, List.of(SimulatedStation.CAM_DENM.get(0)),
                Protection.FULL, CLOCK.instant()), eaCert, CLOCK.instant());
        HttpResponse<byte[]> validated = post(eaUrl + "/ea/authorization-validation", "application/x-its-request", validation.body());
        assertThat(validated.statusCode()).isEqualTo(200);
        assertThat(aa.read(validated.body(), validation, eaCert).confirmed()).isPresent();
    }

    @Test
    @Order(2)
    void tokenRemovedWhileServing_healthDown_andNoCertificateIssued() {
        SimulatedStation station = SimulatedStation.generate("HSM-2", EtsiCurve.NIST_P256, TestPki.RANDOM);
        assertThat(post(operatorUrl + "/operator/v1/stations", "application/json",
                ("{\"stations\":[{\"canonicalId\":\"HSM-2\",\"curve\":\"nistP256\",\"publicKey\":\"" + station.canonicalKeyHex()
                        + "\",\"permissions\":[{\"psid\":36,\"sspType\":\"bitmap\",\"ssp\":\"01fffc\"}],\"maxEcValidity\":\"P30D\"}]}")
                        .getBytes())
                .statusCode()).isEqualTo(201);

        SoftHsm.deleteToken(TOKEN);

        StationMessages.Request enrolment = MESSAGES.enrolment(station, eaCert, CLOCK.instant());
        HttpResponse<byte[]> answer = post(eaUrl + "/ea/enrolment", "application/x-its-request", enrolment.body());
        assertThat(answer.statusCode()).as("no ETSI answer can be made without the keys").isEqualTo(500);
        assertThat(new String(answer.body())).contains("500").doesNotContain("labelled");
        assertThat(station.enrolmentCredential()).as("no EC").isNull();
        HttpResponse<byte[]> health = get(eaHealth);
        assertThat(health.statusCode()).isEqualTo(503);
    }

    private static String[] args(Map<String, Object> common, Map<String, Object> own) {
        return java.util.stream.Stream.concat(common.entrySet().stream(), own.entrySet().stream())
                .map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
    }

    private static HttpResponse<byte[]> get(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).GET().build());
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
