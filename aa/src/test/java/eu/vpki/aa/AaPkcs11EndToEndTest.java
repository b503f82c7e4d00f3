package eu.vpki.aa;

import eu.vpki.aa.testing.LocalPki;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.station.OperatorClient;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import eu.vpki.common.distribution.TrustListClient;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.testing.SoftHsm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole local PKI (RCA, DC, an EA cluster, the AA) with every authority's keys in a real SoftHSM2 token of its
 * own (issue #36), each made by the key ceremony: a station registers, enrols and gets an AT that chains to the
 * root, the RCA having signed the EA's and the AA's certificates and the CTL in its token, the EA its EC and
 * validation answer in its token, the AA decrypting, signing the validation request, decrypting the EA's answer
 * and signing the AT and the response in its token; then the AA's token is removed while the AA serves: no AT,
 * health DOWN. Every authority on nistP256 here; {@link AaPkcs11BrainpoolEndToEndTest} runs the same on brainpoolP256r1.
 */
@Tag("softhsm")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AaPkcs11EndToEndTest {
    private static final String TOKEN = "aa-e2e-test";
    private static final String RCA_TOKEN = "rca-e2e-test";
    private static final String EA_TOKEN = "ea-e2e-test";
    LocalPki pki;
    LocalPki.Ea ea;
    final int aaPort = LocalPki.freePort();
    ConfigurableApplicationContext aa;

    /** The curve of every authority's keys (the RCA's, the EA's and the AA's), all in their tokens. */
    EtsiCurve curve() {
        return EtsiCurve.NIST_P256;
    }

    @BeforeAll
    void deploy() {
        // every token before the module is first loaded in this JVM (SoftHsm)
        Pkcs11Settings rcaToken = SoftHsm.createToken(RCA_TOKEN);
        Pkcs11Settings eaToken = SoftHsm.createToken(EA_TOKEN);
        Pkcs11Settings token = SoftHsm.createToken(TOKEN);
        pki = new LocalPki(curve());
        pki.startRcaAndDcInToken(rcaToken, SoftHsm.PIN);
        ea = pki.certifyEaInToken("ea-hsm", 1, eaToken, SoftHsm.PIN);
        pki.certifyAaInToken(aaUri(), token);
        pki.publishCtlToEas(1, 1);
        pki.startCluster(ea, "SYNC");
        aa = pki.startAa(aaPort, "aa-hsm", pki.pkcs11Arguments(token, SoftHsm.PIN));
    }

    @AfterAll
    void tearDown() {
        if (pki != null) {
            pki.close();
        }
    }

    URI aaUri() {
        return URI.create("http://127.0.0.1:" + aaPort + "/aa/authorization");
    }

    @Test
    @Order(1)
    void enrolmentAndAuthorization_withEveryAuthoritysKeysInAToken_issueAnAtChainingToTheRoot() {
        SimulatedStation station = register("HSM-E2E-1");
        assertThat(ea.enrol(station, 0)).isEqualTo(EtsiCodes.Enrolment.OK);
        StationMessages.Request request = LocalPki.MESSAGES.authorization(station, ea.certificate, pki.aa, SimulatedStation.CAM_DENM,
                Protection.FULL, Instant.now());
        var result = LocalPki.authorize(aaUri(), request, pki.aa);

        assertThat(result.responseCode()).isEqualTo(EtsiCodes.Authorization.OK);
        EtsiCertificate at = result.authorizationTicket().orElseThrow();
        TrustListClient vehicle = pki.vehicleView();
        assertThat(vehicle.current().validate(at, Instant.now())).containsExactly(at, pki.aa, pki.root);
        assertThat(health()).isEqualTo(200);
        // no authority key outside the tokens: no key store was ever written
        assertThat(pki.dir.resolve("rca/rca.p12")).doesNotExist();
        assertThat(ea.keystore).doesNotExist();
        assertThat(pki.dir.resolve("aa.p12")).doesNotExist();
    }

    @Test
    @Order(2)
    void tokenRemovedWhileServing_noAt_andHealthDown() {
        SimulatedStation station = register("HSM-E2E-2");
        assertThat(ea.enrol(station, 0)).isEqualTo(EtsiCodes.Enrolment.OK);
        double issuedBefore = EtsiEndpointsOverTlsTest.issued(aa);

        SoftHsm.deleteToken(TOKEN);

        StationMessages.Request request = LocalPki.MESSAGES.authorization(station, ea.certificate, pki.aa, SimulatedStation.CAM_DENM,
                Protection.FULL, Instant.now());
        HttpResponse<byte[]> answer = LocalPki.send(HttpRequest.newBuilder(aaUri()).header("Content-Type", "application/x-its-request")
                .POST(HttpRequest.BodyPublishers.ofByteArray(request.body())).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(answer.statusCode()).as("the AA cannot decrypt without its key: a problem, no ETSI answer").isNotEqualTo(200);
        assertThat(EtsiEndpointsOverTlsTest.issued(aa)).isEqualTo(issuedBefore);
        assertThat(health()).isEqualTo(503);
    }

    private SimulatedStation register(String id) {
        SimulatedStation station = SimulatedStation.generate(id, EtsiCurve.NIST_P256, TestPki.RANDOM);
        OperatorClient.Answer registered = ea.register(station);
        assertThat(registered.status()).as(registered.body().toString()).isEqualTo(201);
        return station;
    }

    private int health() {
        String port = aa.getEnvironment().getProperty("local.management.port");
        return LocalPki.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health")).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray()).statusCode();
    }
}
