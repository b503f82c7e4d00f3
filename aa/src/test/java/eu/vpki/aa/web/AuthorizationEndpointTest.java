package eu.vpki.aa.web;

import eu.vpki.aa.core.AaFixture;
import eu.vpki.aa.core.Station;
import eu.vpki.common.error.EtsiCodes.Authorization;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.shell.limits.RequestBodyLimit;
import eu.vpki.shell.limits.RequestBodyLimitFilter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.servlet.function.RouterFunctions;

import java.io.IOException;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The HTTP contract of the access point, over the real core with an in-process fake EA. */
class AuthorizationEndpointTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);

    private final AaFixture aa = new AaFixture(PKI);
    private final MockMvc mvc = MockMvcBuilders.routerFunctions(RouterFunctions.route()
            .POST("/aa/authorization", new AuthorizationEndpoint(aa.service)::authorize).build())
            .addFilters(new RequestBodyLimitFilter(List.of(new RequestBodyLimit("vpki.aa.max-request-bytes", List.of("/aa/authorization"), 4096)),
                    65536)).build();

    @AfterEach
    void tearDown() throws IOException {
        aa.close();
    }

    @Test
    void authorizationRequest_isAnsweredWith200_itsResponse_carryingTheAt() throws Exception {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        OutgoingRequest request = station.request(Protection.FULL, Station.CAM_DENM, NOW);

        MvcResult result = mvc.perform(post("/aa/authorization").contentType("application/x-its-request").content(request.body()))
                .andExpect(status().isOk()).andExpect(content().contentType("application/x-its-response")).andReturn();

        var at = station.read(result.getResponse().getContentAsByteArray(), request);
        assertThat(at.ok()).isTrue();
        assertThat(at.authorizationTicket().orElseThrow().verificationKey()).isNotNull();
    }

    @Test
    void refusal_isStill200_withAnEncryptedResponseCode() throws Exception {
        Station stranger = Station.enrolled(PKI, EtsiCurve.NIST_P256);
        OutgoingRequest request = stranger.request(Protection.FULL, Station.CAM_DENM, NOW);

        MvcResult result = mvc.perform(post("/aa/authorization").contentType("application/x-its-request").content(request.body()))
                .andExpect(status().isOk()).andExpect(content().contentType("application/x-its-response")).andReturn();

        assertThat(stranger.read(result.getResponse().getContentAsByteArray(), request).responseCode()).isEqualTo(Authorization.UNKNOWNITS);
        assertThat(aa.tickets("issued")).isZero();
    }

    @Test
    void undecryptableBody_is400Problem_andNothingIsIssued() throws Exception {
        mvc.perform(post("/aa/authorization").contentType("application/x-its-request").content(new byte[]{3, (byte) 0x82, 0}))
                .andExpect(status().isBadRequest()).andExpect(content().contentType("application/problem+json"))
                .andExpect(jsonPath("$.type").value("urn:vpki:error:malformed-encoding"))
                .andExpect(jsonPath("$.code").value(100)).andExpect(jsonPath("$.error").value("MALFORMED_ENCODING"));
        assertThat(aa.tickets("issued")).isZero();
        assertThat(aa.tickets("undecryptable")).isEqualTo(1);
    }

    @Test
    void wrongContentType_is415_andNeverReachesTheCore() throws Exception {
        mvc.perform(post("/aa/authorization").contentType("application/octet-stream").content(new byte[]{1}))
                .andExpect(status().isUnsupportedMediaType()).andExpect(jsonPath("$.error").value("UNEXPECTED_CONTENT"));
        assertThat(aa.auditLines()).isEmpty();
    }

    @Test
    void oversizeBody_is413_andNeverReachesTheCore() throws Exception {
        mvc.perform(post("/aa/authorization").contentType("application/x-its-request").content(new byte[4097]))
                .andExpect(status().isPayloadTooLarge()).andExpect(jsonPath("$.code").value(102));
        assertThat(aa.auditLines()).isEmpty();
    }
}
