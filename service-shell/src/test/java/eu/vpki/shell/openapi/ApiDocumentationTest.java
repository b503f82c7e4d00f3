package eu.vpki.shell.openapi;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.FieldError;
import eu.vpki.shell.problem.Problems;
import eu.vpki.shell.security.BearerApi;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.web.method.HandlerMethod;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ApiDocumentationTest {
    /** A controller as a service writes one. */
    @ProblemResponses(ErrorCode.REPLICATION_UNAVAILABLE)
    static class Controller {
        @ProblemResponses({ErrorCode.NOT_FOUND, ErrorCode.DUPLICATE_ID, ErrorCode.INVALID_STATE_TRANSITION})
        public void change() {
        }

        public void read() {
        }
    }

    private final ApiDocumentation documentation = new ApiDocumentation(List.of(
            new BearerApi("fleet", List.of("/fleet/**"), token -> Optional.empty())));

    @Test
    void operation_answersItsDeclaredProblems_atTheirStatus_plusBodyAndInternalOnes() throws Exception {
        Operation op = documentation.customize(new Operation().requestBody(new RequestBody()),
                new HandlerMethod(new Controller(), Controller.class.getMethod("change")));

        assertThat(op.getResponses()).containsOnlyKeys("400", "404", "409", "413", "415", "500", "503");
        assertThat(errors(op.getResponses().get("409"))).containsExactly("DUPLICATE_ID", "INVALID_STATE_TRANSITION");
        assertThat(op.getResponses().get("409").getDescription()).isEqualTo("RFC 7807 problem: DUPLICATE_ID, INVALID_STATE_TRANSITION");
        assertThat(errors(op.getResponses().get("503"))).containsExactly("REPLICATION_UNAVAILABLE");
        assertThat(op.getResponses().get("503").getHeaders()).containsKey("Retry-After");
        assertThat(errors(op.getResponses().get("415"))).containsExactly("UNEXPECTED_CONTENT");
        assertThat(op.getResponses().get("404").getContent()).containsOnlyKeys("application/problem+json");
        assertThat(op.getResponses().get("404").getContent().get("application/problem+json").getSchema().get$ref())
                .isEqualTo("#/components/schemas/Problem");

        Operation read = documentation.customize(new Operation(), new HandlerMethod(new Controller(), Controller.class.getMethod("read")));
        assertThat(read.getResponses()).containsOnlyKeys("500", "503");
    }

    @Test
    void bearerPaths_requireTheScheme_andAnswer401And403_otherPathsDoNot() throws Exception {
        Operation secured = documentation.customize(new Operation(),
                new HandlerMethod(new Controller(), Controller.class.getMethod("read")));
        Operation open = documentation.customize(new Operation(), new HandlerMethod(new Controller(), Controller.class.getMethod("read")));
        OpenAPI api = new OpenAPI().paths(new Paths()
                .addPathItem("/fleet/v1/stations/{id}", new PathItem().get(secured))
                .addPathItem("/public/list", new PathItem().get(open)));

        documentation.customise(api);

        assertThat(api.getComponents().getSecuritySchemes().get("fleet").getScheme()).isEqualTo("bearer");
        assertThat(secured.getSecurity()).singleElement().satisfies(r -> assertThat(r).containsOnlyKeys("fleet"));
        assertThat(errors(secured.getResponses().get("401"))).containsExactly("UNAUTHENTICATED");
        assertThat(secured.getResponses().get("401").getHeaders()).containsKey("WWW-Authenticate");
        assertThat(errors(secured.getResponses().get("403"))).containsExactly("API_DISABLED", "TLS_REQUIRED");
        assertThat(errors(secured.getResponses().get("429"))).containsExactly("TOO_MANY_ATTEMPTS");
        assertThat(open.getSecurity()).isNull();
        assertThat(open.getResponses()).doesNotContainKeys("401", "403", "429");
    }

    @Test
    void problemSchema_hasEveryMemberProblemsWrites_andEveryErrorName() {
        ProblemDetail problem = Problems.invalid(ErrorCode.INVALID_KEY, "bad",
                List.of(new FieldError("stations[0].publicKey", ErrorCode.INVALID_KEY, "not on the curve")));
        problem.setInstance(URI.create("/fleet/v1/stations"));
        Schema<?> schema = ApiDocumentation.problemSchema();

        assertThat(schema.getProperties()).containsKeys("type", "title", "status", "detail", "instance");
        assertThat(schema.getProperties()).containsKeys(problem.getProperties().keySet().toArray(String[]::new));
        @SuppressWarnings("unchecked")
        Map<String, Object> field = ((List<Map<String, Object>>) problem.getProperties().get("errors")).get(0);
        assertThat(schema.getProperties().get("errors").getItems().getProperties()).containsOnlyKeys(field.keySet().toArray(String[]::new));
        assertThat(ApiDocumentation.errorNames().getEnum()).hasSize(ErrorCode.values().length).contains("INVALID_KEY", "API_DISABLED");
    }

    @SuppressWarnings("unchecked")
    private static List<Object> errors(ApiResponse response) {
        return ((List<Map<String, Object>>) response.getExtensions().get(ApiDocumentation.ERRORS)).stream()
                .map(e -> e.get("error")).toList();
    }
}
