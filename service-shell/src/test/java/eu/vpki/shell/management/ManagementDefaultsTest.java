package eu.vpki.shell.management;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ManagementDefaultsTest {
    private final ManagementDefaults defaults = new ManagementDefaults();

    private MockEnvironment apply(MockEnvironment environment) {
        defaults.postProcessEnvironment(environment, new SpringApplication());
        return environment;
    }

    @Test
    void managementPort_defaultsToThePublicPortPlus1000_onLoopback() {
        MockEnvironment env = apply(new MockEnvironment().withProperty("server.port", "8083"));
        assertThat(env.getProperty("management.server.port")).isEqualTo("9083");
        assertThat(env.getProperty("management.server.address")).isEqualTo("127.0.0.1");
        assertThat(env.getProperty("management.endpoints.web.exposure.include"))
                .isEqualTo("health,info,prometheus,metrics,sbom,replication");
        assertThat(env.getProperty("management.endpoint.health.show-details")).isEqualTo("always");
        assertThat(env.getProperty("spring.info.git.location")).isEqualTo("classpath:META-INF/vpki-version.properties");
        assertThat(apply(new MockEnvironment()).getProperty("management.server.port")).isEqualTo("9080");
    }

    @Test
    void anyFreePublicPort_givesAnyFreeManagementPort() {
        assertThat(apply(new MockEnvironment().withProperty("server.port", "0")).getProperty("management.server.port")).isEqualTo("0");
    }

    @Test
    void configuredValues_win() {
        MockEnvironment env = apply(new MockEnvironment().withProperty("server.port", "8083")
                .withProperty("management.server.port", "7083").withProperty("management.server.address", "0.0.0.0")
                .withProperty("management.endpoints.web.exposure.include", "health"));
        assertThat(env.getProperty("management.server.port")).isEqualTo("7083");
        assertThat(env.getProperty("management.server.address")).isEqualTo("0.0.0.0");
        assertThat(env.getProperty("management.endpoints.web.exposure.include")).isEqualTo("health");
        assertThat(apply(new MockEnvironment().withProperty("server.port", "8083").withProperty("management.server.port", "-1"))
                .getProperty("management.server.port")).isEqualTo("-1");
    }

    @Test
    void actuatorOnThePublicPort_orNoPortAtAll_failsTheStart() {
        assertThatThrownBy(
                () -> apply(new MockEnvironment().withProperty("server.port", "8083").withProperty("management.server.port", "8083")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("public port");
        assertThatThrownBy(
                () -> apply(new MockEnvironment().withProperty("server.port", "8083").withProperty("management.server.port", "70000")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("management.server.port");
        assertThatThrownBy(
                () -> apply(new MockEnvironment().withProperty("server.port", "8083").withProperty("management.server.port", "nine")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("nine");
        assertThatThrownBy(() -> apply(new MockEnvironment().withProperty("server.port", "65000")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("management.server.port");
    }
}
