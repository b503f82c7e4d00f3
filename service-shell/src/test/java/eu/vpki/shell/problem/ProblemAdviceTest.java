package eu.vpki.shell.problem;

import eu.vpki.shell.ShellTestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.web.servlet.MockMvc;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Slice test: every kind of error a controller can raise gets the one problem shape, with the mapped status. */
@WebMvcTest(controllers = ProblemTestController.class)
@ContextConfiguration(classes = ShellTestApplication.class)
@Import(ProblemTestController.class)
class ProblemAdviceTest {
    @Autowired
    MockMvc mvc;

    @Test
    void pkiException_isAProblemWithTypeTitleCodeAndError() throws Exception {
        mvc.perform(get("/test/pki/INVALID_KEY"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentType("application/problem+json"))
                .andExpect(jsonPath("$.type").value("urn:vpki:error:invalid-key"))
                .andExpect(jsonPath("$.title").value("public key is not a valid point on its curve"))
                .andExpect(jsonPath("$.status").value(400))
                .andExpect(jsonPath("$.detail").value(containsString("detail of INVALID_KEY")))
                .andExpect(jsonPath("$.code").value(313))
                .andExpect(jsonPath("$.error").value("INVALID_KEY"))
                .andExpect(jsonPath("$.errors").doesNotExist());
    }

    @Test
    void statusComesFromTheOneMapping_withTheHeadersItCallsFor() throws Exception {
        mvc.perform(get("/test/pki/UNAUTHENTICATED")).andExpect(status().isUnauthorized())
                .andExpect(header().string("WWW-Authenticate", "Bearer")).andExpect(jsonPath("$.code").value(600));
        mvc.perform(get("/test/pki/API_DISABLED")).andExpect(status().isForbidden());
        mvc.perform(get("/test/pki/NOT_FOUND")).andExpect(status().isNotFound());
        mvc.perform(get("/test/pki/STALE_DATA")).andExpect(status().isConflict());
        mvc.perform(get("/test/pki/OVERSIZE_INPUT")).andExpect(status().isPayloadTooLarge());
        mvc.perform(get("/test/pki/REPLICATION_UNAVAILABLE")).andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "1")).andExpect(jsonPath("$.error").value("REPLICATION_UNAVAILABLE"));
    }

    @Test
    void serverErrors_neverShowTheirDetail() throws Exception {
        mvc.perform(get("/test/pki/KEY_STORE_FAILURE")).andExpect(status().isInternalServerError())
                .andExpect(jsonPath("$.detail").value("key store cannot be read or written"))
                .andExpect(content().string(not(containsString("C0FFEE"))));
        mvc.perform(get("/test/bug")).andExpect(status().isInternalServerError())
                .andExpect(jsonPath("$.error").value("INTERNAL_ERROR")).andExpect(jsonPath("$.code").value(501))
                .andExpect(content().string(not(containsString("C0FFEE"))));
    }

    @Test
    void invalidInput_listsEveryField() throws Exception {
        mvc.perform(post("/test/items").contentType("application/json").content("[]"))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.error").value("DUPLICATE_ID"))
                .andExpect(jsonPath("$.errors[0].field").value("[0].name"))
                .andExpect(jsonPath("$.errors[0].code").value(700))
                .andExpect(jsonPath("$.errors[1].field").value("[1].psids[0]"))
                .andExpect(jsonPath("$.errors[1].error").value("UNKNOWN_PSID"))
                .andExpect(jsonPath("$.errors[1].detail").value("not a PSID this PKI issues"));
    }

    @Test
    void unreadableJson_namesTheField() throws Exception {
        mvc.perform(post("/test/items").contentType("application/json").content("[{\"name\":\"a\",\"psids\":[\"x\"]}]"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error").value("INVALID_ARGUMENT"))
                .andExpect(jsonPath("$.errors[0].field").value("[0].psids[0]"));
        mvc.perform(post("/test/items").contentType("application/json").content("{not json"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.errors[0].field").value("body"));
    }

    @Test
    void springsOwnErrors_keepTheirStatus_withOurCode() throws Exception {
        mvc.perform(get("/test/nowhere")).andExpect(status().isNotFound())
                .andExpect(content().contentType("application/problem+json"))
                .andExpect(jsonPath("$.error").value("NOT_FOUND")).andExpect(jsonPath("$.code").value(503));
        mvc.perform(post("/test/bug")).andExpect(status().isMethodNotAllowed())
                .andExpect(header().string("Allow", "GET")).andExpect(jsonPath("$.error").value("INVALID_ARGUMENT"));
        mvc.perform(post("/test/items").contentType("application/x-its-request").content(new byte[]{1}))
                .andExpect(status().isUnsupportedMediaType()).andExpect(jsonPath("$.error").value("UNEXPECTED_CONTENT"));
    }
}
