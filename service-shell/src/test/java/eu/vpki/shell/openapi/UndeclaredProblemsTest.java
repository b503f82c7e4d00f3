package eu.vpki.shell.openapi;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.FieldError;
import eu.vpki.common.error.InvalidInputException;
import eu.vpki.common.error.PkiException;
import eu.vpki.shell.problem.ProblemAdvice;
import eu.vpki.shell.security.BearerApi;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Through the real ProblemAdvice: a problem an operation answers but does not declare is found, a declared one is not. */
class UndeclaredProblemsTest {

    @RestController
    @ProblemResponses(ErrorCode.REPLICATION_UNAVAILABLE)
    static class Stations {
        @GetMapping("/api/stations/{code}")
        @ProblemResponses(ErrorCode.NOT_FOUND)
        String read(@PathVariable String code) {
            if (code.equals("bug")) {
                throw new IllegalStateException("a bug");
            }
            throw new PkiException(ErrorCode.valueOf(code), "answered " + code);
        }

        @PostMapping(path = "/api/stations", consumes = "application/json")
        @ProblemResponses(ErrorCode.DUPLICATE_ID)
        String register(@RequestBody List<String> codes) {
            throw new InvalidInputException(codes.stream()
                    .map(c -> new FieldError("stations[0]", ErrorCode.valueOf(c), "invalid")).toList());
        }

        @GetMapping("/public/{code}")
        String download(@PathVariable String code) {
            throw new PkiException(ErrorCode.valueOf(code), "answered " + code);
        }
    }

    private final UndeclaredProblems undeclared = new UndeclaredProblems(
            new ApiDocumentation(List.of(new BearerApi("fleet", List.of("/api/**"), token -> Optional.empty()))),
            List.of("/api/**"), List.of());
    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new Stations())
            .setControllerAdvice(new ProblemAdvice(List.of(undeclared))).build();

    @Test
    void declaredDocumentedAndUndescribedProblems_areNotFindings() throws Exception {
        mvc.perform(get("/api/stations/NOT_FOUND")).andExpect(status().isNotFound());
        mvc.perform(get("/api/stations/REPLICATION_UNAVAILABLE")).andExpect(status().isServiceUnavailable()); // on the controller
        mvc.perform(get("/api/stations/bug")).andExpect(status().isInternalServerError());
        mvc.perform(get("/api/stations/UNAUTHENTICATED")).andExpect(status().isUnauthorized()); // a bearer API's path
        mvc.perform(post("/api/stations").contentType("application/json").content("[\"DUPLICATE_ID\"]")).andExpect(status().isConflict());
        mvc.perform(post("/api/stations").contentType("application/json").content("{")).andExpect(status().isBadRequest()); // reads a body
        mvc.perform(get("/public/DUPLICATE_ID")).andExpect(status().isConflict()); // not in the description

        assertThat(undeclared.take()).isEmpty();
    }

    @Test
    void anUndeclaredCode_orAnUndeclaredFieldCode_isFound_once() throws Exception {
        mvc.perform(get("/api/stations/DUPLICATE_ID")).andExpect(status().isConflict());
        mvc.perform(post("/api/stations").contentType("application/json").content("[\"DUPLICATE_ID\", \"UNKNOWN_PSID\"]"))
                .andExpect(status().isConflict());

        assertThat(undeclared.take()).containsExactly(
                "GET /api/stations/{code} (Stations.read) answered DUPLICATE_ID (700), which its OpenAPI description"
                        + " does not list: add it to the method's @ProblemResponses",
                "POST /api/stations (Stations.register) answered UNKNOWN_PSID (308), which its OpenAPI description"
                        + " does not list: add it to the method's @ProblemResponses");
        assertThat(undeclared.take()).isEmpty();
    }
}
