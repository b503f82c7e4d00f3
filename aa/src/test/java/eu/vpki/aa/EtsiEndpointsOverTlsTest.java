package eu.vpki.aa;

import eu.vpki.aa.testing.LocalPki;
import eu.vpki.common.distribution.TrustListClient;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.AtResult;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.station.OperatorClient;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import javax.net.ssl.SSLHandshakeException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;

import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ETSI endpoints with TLS turned on (issue #18): the DC, the EA replica and the AA speak https only
 * with certificates of the test TLS CA ({@code server.ssl.bundle}), every access point the CTL lists is
 * https, and every service's clients trust that CA ({@code vpki.tls.client-bundle}). Over real https a
 * station enrols and gets an AT, the AA validating it with the EA over https and both fetching the
 * lists from the DC over https; a plain-HTTP request to a TLS-only port gets nothing from the service.
 */
class EtsiEndpointsOverTlsTest {
    static LocalPki pki;
    static LocalPki.Ea ea;
    static final int AA_PORT = LocalPki.freePort();
    static final int AA_JDK_PORT = LocalPki.freePort();
    /** With the default EA client (Apache HttpClient). */
    static ConfigurableApplicationContext aa;
    /** The same AA certificate, the JDK's client to the EA. */
    static ConfigurableApplicationContext aaJdk;

    @BeforeAll
    static void deploy() {
        pki = new LocalPki().withEtsiTls();
        pki.startRcaAndDc();
        ea = pki.certifyEa("ea-tls", 1);
        pki.certifyAa(aaUri("https"));
        RcaCtl ctl = pki.publishCtlToEas(1, 1);
        assertThat(ctl.enrolmentAuthorities()).singleElement().satisfies(e -> {
            assertThat(e.itsAccessPoint()).startsWith("https://");
            assertThat(e.aaAccessPoint()).startsWith("https://");
        });
        assertThat(ctl.authorizationAuthorities()).singleElement().satisfies(a -> assertThat(a.accessPoint()).startsWith("https://"));
        pki.startCluster(ea, "SYNC");
        aa = pki.startAa(AA_PORT, "aa-tls");
        aaJdk = pki.startAa(AA_JDK_PORT, "aa-tls-jdk", "--vpki.aa.ea.client=JDK");
    }

    @AfterAll
    static void tearDown() {
        if (pki != null) {
            pki.close();
        }
    }

    static URI aaUri(String scheme) {
        return aaUri(scheme, AA_PORT);
    }

    static URI aaUri(String scheme, int port) {
        return URI.create(scheme + "://127.0.0.1:" + port + "/aa/authorization");
    }

    @Test
    void enrolmentAndAuthorization_overHttps_issueAtsChainingToTheRoot_withEitherEaClient() {
        SimulatedStation station = SimulatedStation.generate("TLS-E2E-1", EtsiCurve.NIST_P256, RANDOM);
        OperatorClient.Answer registered = ea.register(station);
        assertThat(registered.status()).as(registered.body().toString()).isEqualTo(201);
        assertThat(ea.enrolment(0).getScheme()).isEqualTo("https");

        assertThat(ea.enrol(station, 0)).isEqualTo(EtsiCodes.Enrolment.OK);
        TrustListClient vehicle = pki.vehicleView();
        for (int port : new int[]{AA_PORT, AA_JDK_PORT}) {
            StationMessages.Request request = LocalPki.MESSAGES.authorization(station, ea.certificate, pki.aa, SimulatedStation.CAM_DENM,
                    Protection.FULL, Instant.now());
            AtResult result = LocalPki.authorize(aaUri("https", port), request, pki.aa);

            assertThat(result.responseCode()).as("AA on port " + port).isEqualTo(EtsiCodes.Authorization.OK);
            EtsiCertificate at = result.authorizationTicket().orElseThrow();
            assertThat(at.verificationKey()).isEqualTo(request.newKey().publicKey());
            assertThat(vehicle.current().validate(at, Instant.now())).containsExactly(at, pki.aa, pki.root);
        }
        assertThat(issued(aa)).isEqualTo(1);
        assertThat(issued(aaJdk)).isEqualTo(1);
    }

    @Test
    void plainHttp_toTlsOnlyPorts_getsNothingFromTheServices() throws Exception {
        HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        double issuedBefore = issued(aa);
        for (URI uri : new URI[]{aaUri("http"), URI.create("http://127.0.0.1:" + ea.replicaPorts.get(0) + "/ea/enrolment")}) {
            HttpResponse<byte[]> r = plain.send(HttpRequest.newBuilder(uri).header("Content-Type", "application/x-its-request")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[]{0x03, (byte) 0x82})).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(r.statusCode()).as("Tomcat answers plain HTTP on a TLS port itself: " + uri).isEqualTo(400);
            assertThat(r.headers().firstValue("Content-Type").orElse("")).doesNotContain("x-its-response");
        }
        HttpResponse<byte[]> ctl = plain.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + pki.dcPort + "/getctl/"
                + pki.root.hashedId8().toHex())).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(ctl.statusCode()).as("the DC's TLS-only port").isEqualTo(400);
        assertThat(issued(aa)).isEqualTo(issuedBefore);
    }

    @Test
    void aClientNotTrustingTheDeploymentsCa_failsTheHandshake() {
        HttpClient jdkDefaults = HttpClient.newHttpClient();

        assertThatThrownBy(
                () -> jdkDefaults.send(HttpRequest.newBuilder(ea.enrolment(0)).header("Content-Type", "application/x-its-request")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[1])).build(), HttpResponse.BodyHandlers.ofByteArray()))
                .isInstanceOf(SSLHandshakeException.class);
    }

    static double issued(ConfigurableApplicationContext context) {
        return context.getBean(MeterRegistry.class).find("vpki.aa.tickets").tag("outcome", "issued").counters().stream()
                .mapToDouble(Counter::count).sum();
    }
}
