package eu.vpki.shell.limits;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class ServerLimitDefaultsTest {
    @Test
    void containerLimits_areSet_belowEveryConfiguredValue() {
        MockEnvironment env = new MockEnvironment().withProperty("server.tomcat.max-connections", "100");
        new ServerLimitDefaults().postProcessEnvironment(env, new SpringApplication());

        assertThat(env.getProperty("server.tomcat.max-connections")).isEqualTo("100");
        assertThat(env.getProperty("server.max-http-request-header-size")).isEqualTo("8KB");
        assertThat(env.getProperty("server.tomcat.connection-timeout")).isEqualTo("20s");
        assertThat(env.getProperty("server.tomcat.max-swallow-size")).isEqualTo("64KB");
        assertThat(env.getProperty("server.tomcat.max-http-form-post-size")).isEqualTo("16KB");
        assertThat(env.getProperty("spring.servlet.multipart.enabled")).isEqualTo("false");
        assertThat(env.getProperty("server.tomcat.max-keep-alive-requests")).isEqualTo("10000");
        assertThat(ServerLimitDefaults.DEFAULTS).hasSize(10);
    }
}
