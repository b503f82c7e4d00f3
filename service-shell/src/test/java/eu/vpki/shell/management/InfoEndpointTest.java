package eu.vpki.shell.management;

import eu.vpki.common.BuildVersion;
import eu.vpki.shell.ShellTestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Over real HTTP on the management port: {@code /actuator/info} says which build a service runs, its version and
 * build time (META-INF/build-info.properties, the root pom's build-info execution) and its git commit and branch (common's
 * META-INF/vpki-version.properties, by ManagementDefaults' spring.info.git.location), the same as {@link BuildVersion} gives the CLI.
 */
@SpringBootTest(classes = ShellTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "server.address=127.0.0.1")
class InfoEndpointTest {
    @LocalManagementPort
    int managementPort;

    @Test
    void info_namesTheBuildVersionAndTime() throws Exception {
        JsonNode build = info().path("build");
        assertThat(build.path("version").asString()).isEqualTo(BuildVersion.current().version()).isNotEqualTo(BuildVersion.UNKNOWN);
        assertThat(build.path("artifact").asString()).isEqualTo("vpki-service-shell");
        assertThat(build.path("time").asString()).isNotBlank();
    }

    @Test
    void info_namesTheGitCommit_asBuildVersionDoes() throws Exception {
        assumeTrue(!BuildVersion.current().commit().equals(BuildVersion.UNKNOWN), "built outside a git checkout (a source tarball)");
        JsonNode git = info().path("git");
        assertThat(git.path("commit").path("id").asString()).matches("[0-9a-f]{7}").isEqualTo(BuildVersion.current().shortCommit());
        assertThat(git.path("branch").asString()).isNotBlank();
    }

    private JsonNode info() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/info")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return JsonMapper.builder().build().readTree(response.body());
    }
}
