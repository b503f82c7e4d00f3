package eu.vpki.shell.etsi;

import eu.vpki.shell.ShellTestApplication;
import eu.vpki.shell.limits.RequestBodyLimit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A service with access point beans (as the EA and the AA): the access point server takes its public port
 * ({@code local.server.port} says which), with the service's body limits and the servlet container's limit keys;
 * the servlet container keeps only the management port, so nothing else of the application is served publicly.
 */
@SpringBootTest(classes = ShellTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1", "management.server.port=0", "server.tomcat.max-keep-alive-requests=2"})
@Import(AccessPointServerAutoConfigurationTest.Declared.class)
class AccessPointServerAutoConfigurationTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    EventLoops loops;

    @TestConfiguration
    static class Declared {
        @Bean
        RequestBodyLimit limit() {
            return new RequestBodyLimit("test.bytes", List.of("/etsi/**"), 10);
        }

        @Bean
        AccessPoint echo() {
            return AccessPoint.onEventLoop("echo", "/etsi/echo", "an EchoRequest", body -> body);
        }

        @Bean
        Mvc mvc() {
            return new Mvc();
        }
    }

    @RestController
    static class Mvc {
        @GetMapping("/mvc/here")
        String here() {
            return "here";
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void thePublicPort_isTheAccessPointServers_withTheServicesLimits() throws Exception {
        URI echo = URI.create("http://127.0.0.1:" + port + "/etsi/echo");
        HttpResponse<String> answer = send(HttpRequest.newBuilder(echo).header("Content-Type", AccessPoint.ITS_REQUEST)
                .POST(HttpRequest.BodyPublishers.ofString("hello")));
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("hello");
        assertThat(send(HttpRequest.newBuilder(echo).header("Content-Type", AccessPoint.ITS_REQUEST)
                .POST(HttpRequest.BodyPublishers.ofString("more than ten bytes"))).statusCode()).isEqualTo(413);
        // server.tomcat.max-keep-alive-requests applies to it
        try (AccessPointServerTest.RawConnection c = new AccessPointServerTest.RawConnection(port)) {
            assertThat(c.post("/etsi/echo", AccessPoint.ITS_REQUEST, new byte[]{5}).headers()).doesNotContainKey("connection");
            assertThat(c.post("/etsi/echo", AccessPoint.ITS_REQUEST, new byte[]{5}).headers()).containsEntry("connection", "close");
        }
        assertThat(loops.transport()).contains("event loop");
    }

    @Test
    void theServletContainer_servesTheManagementPortOnly() throws Exception {
        assertThat(managementPort).isPositive().isNotEqualTo(port);
        HttpResponse<String> health = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/health")));
        assertThat(health.statusCode()).isEqualTo(200);
        HttpResponse<String> mvc = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mvc/here")));
        assertThat(mvc.statusCode()).as("an MVC path is no access point").isEqualTo(404);
        assertThat(mvc.body()).contains("\"error\":\"NOT_FOUND\"");
    }
}
