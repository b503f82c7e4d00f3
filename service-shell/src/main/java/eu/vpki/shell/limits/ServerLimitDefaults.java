package eu.vpki.shell.limits;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The servlet container's connection and header limits of every service, in one place: applied
 * after all configuration was read and below every configured value (any of them can be set as
 * usual). See {@link #DEFAULTS} and docs/configuration.md ("Limits").
 */
public final class ServerLimitDefaults implements EnvironmentPostProcessor, Ordered {
    static final String SOURCE = "vpki-server-limit-defaults";

    /** Key → default. */
    static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        // request line and headers together; a bearer token and ETSI headers fit many times over
        d.put("server.max-http-request-header-size", "8KB");
        // open connections per service, and the backlog beyond them
        d.put("server.tomcat.max-connections", "4096");
        d.put("server.tomcat.accept-count", "200");
        // a client that opened a connection has this long to send its request line and headers (slow headers)
        d.put("server.tomcat.connection-timeout", "20s");
        // an idle kept-alive connection is closed after this (Tomcat's default, kept explicit: clients reuse connections)
        d.put("server.tomcat.keep-alive-timeout", "60s");
        // requests per kept-alive connection: Tomcat's default of 100 makes the AA and the load client reconnect
        // every 100 requests (a TCP handshake, and a TLS one with TLS, per 100 ATs on each hop); still bounded, so a
        // load balancer gets to spread long-lived clients again now and then
        d.put("server.tomcat.max-keep-alive-requests", "10000");
        // what the container still reads of a body nobody read (after a refusal) before it closes the connection
        d.put("server.tomcat.max-swallow-size", "64KB");
        // form bodies are buffered by the container for request parameters; no endpoint takes a form
        d.put("server.tomcat.max-http-form-post-size", "16KB");
        d.put("server.tomcat.max-parameter-count", "100");
        d.put("spring.servlet.multipart.enabled", "false");
        return Map.copyOf(d);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Map<String, Object> absent = new LinkedHashMap<>();
        DEFAULTS.forEach((key, value) -> {
            if (environment.getProperty(key) == null) {
                absent.put(key, value);
            }
        });
        environment.getPropertySources().addLast(new MapPropertySource(SOURCE, absent));
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
