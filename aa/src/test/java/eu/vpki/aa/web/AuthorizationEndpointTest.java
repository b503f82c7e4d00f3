package eu.vpki.aa.web;

import com.jayway.jsonpath.JsonPath;
import eu.vpki.aa.core.AaFixture;
import eu.vpki.aa.core.Station;
import eu.vpki.common.error.EtsiCodes.Authorization;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.shell.etsi.AccessPointServlet;
import eu.vpki.shell.limits.RequestBodyLimit;
import eu.vpki.shell.limits.RequestBodyLimitFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import java.io.IOException;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP contract of the access point, over the real core with an in-process fake EA: the servlet
 * behind the request body limit filter, as the service registers them (AuthorizationEndToEndTest runs
 * them in Tomcat).
 */
class AuthorizationEndpointTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);

    private final AaFixture aa = new AaFixture(PKI);
    private final AccessPointServlet servlet = new AccessPointServlet("aa-authorization", "an AuthorizationRequest",
            new AuthorizationEndpoint(aa.service), new SimpleMeterRegistry());
    private final RequestBodyLimitFilter limit = new RequestBodyLimitFilter(
            List.of(new RequestBodyLimit("vpki.aa.max-request-bytes", List.of("/aa/authorization"), 4096)), 65536);

    private MockHttpServletResponse post(String contentType, byte[] body) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/aa/authorization");
        request.setContentType(contentType);
        request.setContent(body);
        MockHttpServletResponse response = new MockHttpServletResponse();
        new MockFilterChain(servlet, limit).doFilter(request, response);
        return response;
    }

    private static Object json(MockHttpServletResponse response, String path) throws Exception {
        return JsonPath.read(response.getContentAsString(), path);
    }

    @AfterEach
    void tearDown() throws IOException {
        aa.close();
    }

    @Test
    void authorizationRequest_isAnsweredWith200_itsResponse_carryingTheAt() throws Exception {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        OutgoingRequest request = station.request(Protection.FULL, Station.CAM_DENM, NOW);

        MockHttpServletResponse result = post("application/x-its-request", request.body());
        assertThat(result.getStatus()).isEqualTo(200);
        assertThat(result.getContentType()).isEqualTo("application/x-its-response");

        var at = station.read(result.getContentAsByteArray(), request);
        assertThat(at.ok()).isTrue();
        assertThat(at.authorizationTicket().orElseThrow().verificationKey()).isNotNull();
    }

    @Test
    void refusal_isStill200_withAnEncryptedResponseCode() throws Exception {
        Station stranger = Station.enrolled(PKI, EtsiCurve.NIST_P256);
        OutgoingRequest request = stranger.request(Protection.FULL, Station.CAM_DENM, NOW);

        MockHttpServletResponse result = post("application/x-its-request", request.body());
        assertThat(result.getStatus()).isEqualTo(200);
        assertThat(result.getContentType()).isEqualTo("application/x-its-response");

        assertThat(stranger.read(result.getContentAsByteArray(), request).responseCode()).isEqualTo(Authorization.UNKNOWNITS);
        assertThat(aa.tickets("issued")).isZero();
    }

    @Test
    void undecryptableBody_is400Problem_andNothingIsIssued() throws Exception {
        MockHttpServletResponse result = post("application/x-its-request", new byte[]{3, (byte) 0x82, 0});
        assertThat(result.getStatus()).isEqualTo(400);
        assertThat(result.getContentType()).isEqualTo("application/problem+json");
        assertThat(json(result, "$.type")).isEqualTo("urn:vpki:error:malformed-encoding");
        assertThat(json(result, "$.code")).isEqualTo(100);
        assertThat(json(result, "$.error")).isEqualTo("MALFORMED_ENCODING");
        assertThat((String) json(result, "$.detail")).endsWith(": no key to encrypt an AuthorizationResponse with");
        assertThat(aa.tickets("issued")).isZero();
        assertThat(aa.tickets("undecryptable")).isEqualTo(1);
    }

    @Test
    void wrongContentType_is415_andNeverReachesTheCore() throws Exception {
        MockHttpServletResponse result = post("application/octet-stream", new byte[]{1});
        assertThat(result.getStatus()).isEqualTo(415);
        assertThat(json(result, "$.error")).isEqualTo("UNEXPECTED_CONTENT");
        assertThat(aa.auditLines()).isEmpty();
    }

    @Test
    void oversizeBody_is413_andNeverReachesTheCore() throws Exception {
        MockHttpServletResponse result = post("application/x-its-request", new byte[4097]);
        assertThat(result.getStatus()).isEqualTo(413);
        assertThat(json(result, "$.code")).isEqualTo(102);
        assertThat(aa.auditLines()).isEmpty();
    }
}
