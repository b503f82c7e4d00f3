package eu.vpki.common.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Which machines get Testcontainers' probe: those with anything that can name a Docker engine. */
class DockerEngineTest {

    @TempDir
    Path dir;

    private Path home() throws IOException {
        return Files.createDirectories(dir.resolve("home"));
    }

    private Path root() throws IOException {
        return Files.createDirectories(dir.resolve("root"));
    }

    @Test
    void nothingConfigured_noProbe() throws IOException {
        Files.createDirectories(root().resolve("run/user/1000"));

        assertThat(DockerEngine.endpointConfigured(Map.of("HOME", "x", "PATH", "/bin"), home(), root())).isFalse();
    }

    @Test
    void environment_dockerHostOrTestcontainersVariable() throws IOException {
        assertThat(DockerEngine.endpointConfigured(Map.of("DOCKER_HOST", "tcp://10.0.0.1:2375"), home(), root())).isTrue();
        assertThat(DockerEngine.endpointConfigured(Map.of("TESTCONTAINERS_HOST_OVERRIDE", "10.0.0.1"), home(), root())).isTrue();
    }

    @Test
    void systemSocket() throws IOException {
        Files.createDirectories(root().resolve("var/run"));
        Files.createFile(root().resolve("var/run/docker.sock"));

        assertThat(DockerEngine.endpointConfigured(Map.of(), home(), root())).isTrue();
    }

    @Test
    void homeConfiguration_propertiesOrDockerDirectory() throws IOException {
        Files.createFile(home().resolve(".testcontainers.properties"));
        assertThat(DockerEngine.endpointConfigured(Map.of(), home(), root())).isTrue();

        Files.delete(home().resolve(".testcontainers.properties"));
        Files.createDirectories(home().resolve(".docker"));
        assertThat(DockerEngine.endpointConfigured(Map.of(), home(), root())).isTrue();
    }

    @Test
    void rootlessSockets() throws IOException {
        Path runtime = Files.createDirectories(dir.resolve("xdg"));
        Files.createFile(runtime.resolve("docker.sock"));
        assertThat(DockerEngine.endpointConfigured(Map.of("XDG_RUNTIME_DIR", runtime.toString()), home(), root())).isTrue();

        Path user = Files.createDirectories(root().resolve("run/user/1000"));
        Files.createFile(user.resolve("docker.sock"));
        assertThat(DockerEngine.endpointConfigured(Map.of(), home(), root())).isTrue();
    }
}
