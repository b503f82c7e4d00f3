package eu.vpki.shell.problem;

import eu.vpki.shell.ShellTestApplication;
import jakarta.servlet.Filter;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** Over real HTTP: what a servlet filter refuses before Spring MVC runs gets the same problem shape. */
@SpringBootTest(classes = ShellTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "server.address=127.0.0.1")
@Import({ProblemTestController.class, ProblemErrorPageTest.Refusing.class})
class ProblemErrorPageTest {
    @LocalServerPort
    int port;

    @TestConfiguration
    static class Refusing {
        @Bean
        Filter refusingFilter() {
            return (request, response, chain) -> {
                if (((jakarta.servlet.http.HttpServletRequest) request).getRequestURI().equals("/test/refused")) {
                    ((jakarta.servlet.http.HttpServletResponse) response).sendError(400, "refused by a filter");
                } else {
                    chain.doFilter(request, response);
                }
            };
        }
    }

    @Test
    void errorRaisedByAFilter_isAProblem() throws Exception {
        HttpResponse<String> r = get("/test/refused");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(r.body()).contains("\"error\":\"INVALID_ARGUMENT\"", "\"code\":502", "refused by a filter",
                "\"type\":\"urn:vpki:error:invalid-argument\"");
    }

    @Test
    void controllerErrors_overRealHttp_areProblemsToo() throws Exception {
        HttpResponse<String> r = get("/test/pki/VERSION_NOT_YET_APPLIED");
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.headers().firstValue("Retry-After")).contains("1");
        assertThat(r.body()).contains("\"code\":702");
        assertThat(get("/no/such/path").body()).contains("\"error\":\"NOT_FOUND\"");
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
