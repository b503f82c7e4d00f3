package eu.vpki.shell.etsi;

import eu.vpki.shell.limits.RequestBodyLimit;
import eu.vpki.shell.limits.RequestBodyLimits;
import eu.vpki.shell.limits.RequestLimitProperties;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.servlet.ConfigurableServletWebServerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.util.unit.DataSize;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Serves a service's {@link AccessPoint} beans (EA, AA) with an {@link AccessPointServer} on its public port
 * ({@code server.address}, {@code server.port}, TLS from {@code server.ssl.bundle}), with the limits the servlet
 * container had there: the same keys, with {@code ServerLimitDefaults}' defaults (docs/configuration.md,
 * "Limits"). The servlet container then serves the management port only: its own connector on
 * {@code server.port} is not started. After the server is bound, {@code local.server.port} says its port, as
 * it says the servlet container's elsewhere.
 *
 * <p>{@code vpki.access-points.event-loops} (default: one per processor) and
 * {@code vpki.access-points.native-transport} (default true: epoll where it loads) shape the {@link EventLoops},
 * which the AA's calls to the EA share.
 */
@AutoConfiguration
@ConditionalOnBean(AccessPoint.class)
@EnableConfigurationProperties(RequestLimitProperties.class)
public class AccessPointServerAutoConfiguration {

    @Bean(destroyMethod = "close")
    EventLoops eventLoops(ConfigurableEnvironment environment) {
        Binder binder = Binder.get(environment);
        int threads = binder.bind("vpki.access-points.event-loops", Integer.class).orElse(Runtime.getRuntime().availableProcessors());
        boolean nativeTransport = binder.bind("vpki.access-points.native-transport", Boolean.class).orElse(true);
        return new EventLoops(threads, nativeTransport);
    }

    /** At most {@code server.tomcat.threads.max} (default 200) threads for access point work that may wait. */
    @Bean(destroyMethod = "close")
    AccessPointWorkers accessPointWorkers(ConfigurableEnvironment environment) {
        return new AccessPointWorkers(Binder.get(environment).bind("server.tomcat.threads.max", Integer.class).orElse(200));
    }

    /** The servlet container keeps the management port; the public port is the access point server's. */
    @Bean
    WebServerFactoryCustomizer<ConfigurableServletWebServerFactory> publicPortToAccessPoints() {
        return new PublicPortToAccessPoints();
    }

    @Bean
    AccessPointServerLifecycle accessPointServer(List<AccessPoint> points, ObjectProvider<RequestBodyLimit> limits,
                                                 RequestLimitProperties requestLimits, EventLoops loops, AccessPointWorkers workers,
                                                 ObjectProvider<SslBundles> bundles, ConfigurableEnvironment environment,
                                                 MeterRegistry registry) {
        AccessPointServer server = new AccessPointServer(settings(environment), points,
                new RequestBodyLimits(limits.orderedStream().toList(), requestLimits.maxRequestBytes()), loops, workers,
                tls(environment, bundles), registry);
        Duration grace = Binder.get(environment).bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
                .orElse(Duration.ofSeconds(30));
        return new AccessPointServerLifecycle(server, environment, grace);
    }

    static AccessPointServer.Settings settings(ConfigurableEnvironment environment) {
        Binder binder = Binder.get(environment);
        return new AccessPointServer.Settings(
                binder.bind("server.address", String.class).orElse(null),
                binder.bind("server.port", Integer.class).orElse(8080),
                (int) binder.bind("server.max-http-request-header-size", DataSize.class).orElse(DataSize.ofKilobytes(8)).toBytes(),
                binder.bind("server.tomcat.max-connections", Integer.class).orElse(4096),
                binder.bind("server.tomcat.accept-count", Integer.class).orElse(200),
                binder.bind("server.tomcat.connection-timeout", Duration.class).orElse(Duration.ofSeconds(20)),
                binder.bind("server.tomcat.keep-alive-timeout", Duration.class).orElse(Duration.ofSeconds(60)),
                binder.bind("server.tomcat.max-keep-alive-requests", Integer.class).orElse(10_000),
                binder.bind("server.tomcat.max-swallow-size", DataSize.class).orElse(DataSize.ofKilobytes(64)).toBytes());
    }

    /** The TLS of {@code server.ssl.bundle}, or none. */
    static SslContext tls(ConfigurableEnvironment environment, ObjectProvider<SslBundles> bundles) {
        String name = environment.getProperty("server.ssl.bundle");
        if (name == null || name.isBlank()) {
            if (environment.getProperty("server.ssl.key-store") != null) {
                throw new IllegalStateException("the ETSI access points take their TLS from server.ssl.bundle (an SSL bundle), "
                        + "not from server.ssl.key-store");
            }
            return null;
        }
        SslBundle bundle = bundles.getObject().getBundle(name.strip());
        String[] protocols = bundle.getOptions().getEnabledProtocols();
        return new JdkSslContext(bundle.createSslContext(), false, null,
                IdentityCipherSuiteFilter.INSTANCE, null, ClientAuth.NONE, protocols, false);
    }

    /** Sets the servlet container's public port to -1: its connector there is not started (the management port stays). */
    static final class PublicPortToAccessPoints implements WebServerFactoryCustomizer<ConfigurableServletWebServerFactory>, Ordered {
        @Override
        public void customize(ConfigurableServletWebServerFactory factory) {
            factory.setPort(-1);
            factory.setSsl(null);
            // the servlet container still logs its start "on port -1": say why, once, before it does
            LoggerFactory.getLogger(AccessPointServerAutoConfiguration.class).info("the servlet container's connector on the public port "
                    + "is not started (it logs port -1): the ETSI access points take that port, the servlet container keeps the management port");
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE; // after the customizer that applies server.port and server.ssl
        }
    }

    /** Binds the server once the application has started (last), stops it first, and says its port as {@code local.server.port}. */
    static final class AccessPointServerLifecycle implements SmartLifecycle {
        private final AccessPointServer server;
        private final ConfigurableEnvironment environment;
        private final Duration grace;
        private volatile boolean running;

        AccessPointServerLifecycle(AccessPointServer server, ConfigurableEnvironment environment, Duration grace) {
            this.server = server;
            this.environment = environment;
            this.grace = grace;
        }

        @Override
        public void start() {
            int port = server.start();
            MutablePropertySources sources = environment.getPropertySources();
            Map<String, Object> ports = new HashMap<>();
            if (sources.get("server.ports") instanceof MapPropertySource existing) {
                ports.putAll(existing.getSource());
            }
            ports.put("local.server.port", port);
            MapPropertySource updated = new MapPropertySource("server.ports", ports);
            if (sources.contains("server.ports")) {
                sources.replace("server.ports", updated);
            } else {
                sources.addFirst(updated);
            }
            running = true;
        }

        @Override
        public void stop() {
            running = false;
            server.stop(grace);
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return SmartLifecycle.DEFAULT_PHASE; // the last to start, the first to stop
        }
    }
}
