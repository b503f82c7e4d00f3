package eu.vpki.shell.management;

import eu.vpki.common.BuildVersion;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Defaults of the management (actuator) server of every service, applied after all configuration
 * was read and below every configured value:
 * <ul>
 *   <li>{@code management.server.port}: {@code server.port + 1000} (e.g. EA 8083 → 9083; 0 when
 *       {@code server.port} is 0, as in tests); {@code -1} turns the management server off;</li>
 *   <li>{@code management.server.address}: {@code 127.0.0.1} (deployments that let a load balancer
 *       check health set it, e.g. to {@code 0.0.0.0} behind a security group);</li>
 *   <li>{@code management.endpoints.web.exposure.include}: {@code health,info,prometheus,metrics,sbom,replication}
 *       ({@code replication}: EA and Operator replicas only, {@code docs/operations.md});</li>
 *   <li>{@code management.endpoint.health.show-details}: {@code always} (the port is private; the
 *       details say why a replica is out of service);</li>
 *   <li>{@code management.metrics.distribution.percentiles-histogram.<timer>}: {@code true} for
 *       {@code vpki.access-point.requests} and {@code http.server.requests}, with buckets from 1 ms to 30 s
 *       ({@code minimum-expected-value}, {@code maximum-expected-value}): the p99 alerts of {@code deploy/prometheus} take
 *       the quantile of every replica's buckets summed;</li>
 *   <li>{@code spring.info.git.location}: common's {@code META-INF/vpki-version.properties} (the {@code git} section of
 *       {@code /actuator/info}: the commit and branch the build came from, the same as {@link BuildVersion} gives the CLI;
 *       the {@code build} section comes from each service's own {@code META-INF/build-info.properties});</li>
 *   <li>{@code management.server.ssl.enabled}: {@code false}: the management server would otherwise take
 *       the public port's TLS ({@code server.ssl.*}, the RCA and the Operator); it stays plain HTTP on its
 *       private address, where load balancers and the local launcher check health ({@code
 *       management.server.ssl.*} gives it TLS of its own).</li>
 * </ul>
 * Fails the start-up when the management port would be the public port (actuator would be served
 * to the public) or is not a port at all.
 */
public final class ManagementDefaults implements EnvironmentPostProcessor, Ordered {
    /** Management port = public port + this, unless configured. */
    public static final int PORT_OFFSET = 1000;
    static final String SOURCE = "vpki-management-defaults";
    /** The build's git commit and branch for {@code /actuator/info}: the file BuildVersion reads, in common's jar. */
    static final String GIT_INFO_LOCATION = "classpath:" + BuildVersion.RESOURCE;
    private static final int SPRING_DEFAULT_PORT = 8080;
    /** The timers published with histogram buckets: the ETSI access points' and the REST APIs' requests. */
    static final java.util.List<String> HISTOGRAM_TIMERS = java.util.List.of("vpki.access-point.requests", "http.server.requests");

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        int serverPort = port(environment, "server.port", SPRING_DEFAULT_PORT);
        Map<String, Object> defaults = new LinkedHashMap<>();
        if (environment.getProperty("management.server.port") == null) {
            defaults.put("management.server.port", Integer.toString(defaultManagementPort(serverPort)));
        } else {
            int management = port(environment, "management.server.port", -1);
            if (management != 0 && management == serverPort) {
                throw new IllegalStateException("management.server.port " + management + " is server.port: actuator would be served "
                        + "on the public port; choose another port (default server.port + " + PORT_OFFSET + ") or -1 to turn it off");
            }
        }
        putIfAbsent(environment, defaults, "management.server.address", "127.0.0.1");
        putIfAbsent(environment, defaults, "management.endpoints.web.exposure.include", "health,info,prometheus,metrics,sbom,replication");
        putIfAbsent(environment, defaults, "management.endpoint.health.show-details", "always");
        putIfAbsent(environment, defaults, "spring.info.git.location", GIT_INFO_LOCATION);
        // histogram buckets for the request timers, so that Prometheus can add replicas up and take the p99 of the sum
        // (docs/operations.md, "Alerts"); 1 ms to 30 s bounds the buckets (about 70 per series)
        for (String timer : HISTOGRAM_TIMERS) {
            putIfAbsent(environment, defaults, "management.metrics.distribution.percentiles-histogram." + timer, "true");
            putIfAbsent(environment, defaults, "management.metrics.distribution.minimum-expected-value." + timer, "1ms");
            putIfAbsent(environment, defaults, "management.metrics.distribution.maximum-expected-value." + timer, "30s");
        }
        if (environment.getProperty("management.server.ssl.bundle") == null
                && environment.getProperty("management.server.ssl.key-store") == null
                && environment.getProperty("management.server.ssl.certificate") == null) {
            putIfAbsent(environment, defaults, "management.server.ssl.enabled", "false");
        }
        environment.getPropertySources().addLast(new MapPropertySource(SOURCE, defaults));
    }

    /** {@code serverPort + }{@value #PORT_OFFSET}; 0 (any free port) for a server on any free port. */
    static int defaultManagementPort(int serverPort) {
        if (serverPort == 0) {
            return 0;
        }
        int port = serverPort + PORT_OFFSET;
        if (port > 65_535) {
            throw new IllegalStateException("server.port " + serverPort + " + " + PORT_OFFSET
                    + " is no port: set management.server.port (or -1 to turn the management server off)");
        }
        return port;
    }

    private static int port(ConfigurableEnvironment environment, String key, int absent) {
        String value = environment.getProperty(key);
        if (value == null || value.isBlank()) {
            return absent;
        }
        try {
            int port = Integer.parseInt(value.strip());
            if (port < -1 || port > 65_535) {
                throw new IllegalStateException(key + " must be a port (0 to 65535, -1 = off), got " + value);
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalStateException(key + " must be a port (0 to 65535, -1 = off), got '" + value + "'", e);
        }
    }

    private static void putIfAbsent(ConfigurableEnvironment environment, Map<String, Object> defaults, String key, String value) {
        if (environment.getProperty(key) == null) {
            defaults.put(key, value);
        }
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
