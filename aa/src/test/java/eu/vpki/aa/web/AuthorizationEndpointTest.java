package eu.vpki.aa.web;

import com.jayway.jsonpath.JsonPath;
import eu.vpki.aa.core.AaFixture;
import eu.vpki.common.error.EtsiCodes.Authorization;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.shell.etsi.AccessPoint;
import eu.vpki.shell.etsi.AccessPointServer;
import eu.vpki.shell.etsi.AccessPointWorkers;
import eu.vpki.shell.etsi.EventLoops;
import eu.vpki.shell.limits.RequestBodyLimit;
import eu.vpki.shell.limits.RequestBodyLimits;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP contract of the access point, over the real core with an in-process fake EA: the access point
 * served by the service shell's access point server with the AA's body limit, as the service declares them
 * (AuthorizationEndToEndTest runs the whole service).
 */
class AuthorizationEndpointTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final AaFixture aa = new AaFixture(PKI);
    private final EventLoops loops = new EventLoops(1, true);
    private final AccessPointWorkers workers = new AccessPointWorkers(2);
    private final AccessPointServer server = new AccessPointServer(
            new AccessPointServer.Settings("127.0.0.1", 0, 8192, 100, 50, Duration.ofSeconds(20), Duration.ofSeconds(60), 10_000, 65536),
            List.of(AccessPoint.asynchronous("aa-authorization", "/aa/authorization", "an AuthorizationRequest",
                    new AuthorizationEndpoint(aa.service))),
            new RequestBodyLimits(List.of(new RequestBodyLimit("vpki.aa.max-request-bytes", List.of("/aa/authorization"), 4096)), 65536),
            loops, workers, null, new SimpleMeterRegistry());
    private final int port = server.start();

    private HttpResponse<byte[]> post(String contentType, byte[] body) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/aa/authorization")).header("Content-Type", contentType)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static Object json(HttpResponse<byte[]> response, String path) {
        return JsonPath.read(new String(response.body(), StandardCharsets.UTF_8), path);
    }

    @AfterEach
    void tearDown() throws IOException {
        server.stop(Duration.ofSeconds(5));
        loops.close();
        workers.close();
        aa.close();
    }
    @Test
    void authorizationRequest_isAnsweredWith200_itsResponse_carryingTheAt() throws Exception {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        StationMessages.Request request = aa.atRequest(station, Protection.FULL, SimulatedStation.CAM_DENM, NOW);

        HttpResponse<byte[]> result = post("application/x-its-request", request.body());
        assertThat(result.statusCode()).isEqualTo(200);
        assertThat(result.headers().firstValue("Content-Type")).hasValue("application/x-its-response");

        var at = aa.read(result.body(), request);
        assertThat(at.ok()).isTrue();
        assertThat(at.authorizationTicket().orElseThrow().verificationKey()).isNotNull();
    }

    @Test
    void refusal_isStill200_withAnEncryptedResponseCode() throws Exception {
        SimulatedStation stranger = AaFixture.withEc(PKI, EtsiCurve.NIST_P256);
        StationMessages.Request request = aa.atRequest(stranger, Protection.FULL, SimulatedStation.CAM_DENM, NOW);

        HttpResponse<byte[]> result = post("application/x-its-request", request.body());
        assertThat(result.statusCode()).isEqualTo(200);
        assertThat(result.headers().firstValue("Content-Type")).hasValue("application/x-its-response");

        assertThat(aa.read(result.body(), request).responseCode()).isEqualTo(Authorization.UNKNOWNITS);
        assertThat(aa.tickets("issued")).isZero();
    }

    @Test
    void undecryptableBody_is400Problem_andNothingIsIssued() throws Exception {
        HttpResponse<byte[]> result = post("application/x-its-request", new byte[]{3, (byte) 0x82, 0});
        assertThat(result.statusCode()).isEqualTo(400);
        assertThat(result.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(json(result, "$.type")).isEqualTo("urn:vpki:error:malformed-encoding");
        assertThat(json(result, "$.code")).isEqualTo(100);
        assertThat(json(result, "$.error")).isEqualTo("MALFORMED_ENCODING");
        assertThat((String) json(result, "$.detail")).endsWith(": no key to encrypt an AuthorizationResponse with");
        assertThat(aa.tickets("issued")).isZero();
        assertThat(aa.tickets("undecryptable")).isEqualTo(1);
    }

    @Test
    void wrongContentType_is415_andNeverReachesTheCore() throws Exception {
        HttpResponse<byte[]> result = post("application/octet-stream", new byte[]{1});
        assertThat(result.statusCode()).isEqualTo(415);
        assertThat(json(result, "$.error")).isEqualTo("UNEXPECTED_CONTENT");
        assertThat(aa.auditLines()).isEmpty();
    }

    @Test
    void oversizeBody_is413_andNeverReachesTheCore() throws Exception {
        HttpResponse<byte[]> result = post("application/x-its-request", new byte[4097]);
        assertThat(result.statusCode()).isEqualTo(413);
        assertThat(json(result, "$.code")).isEqualTo(102);
        assertThat(aa.auditLines()).isEmpty();
    }
}
