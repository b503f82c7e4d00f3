package eu.vpki.common.replication;

import org.jgroups.conf.ProtocolConfiguration;
import org.jgroups.conf.ProtocolStackConfigurator;
import org.jgroups.conf.XmlConfigurator;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds a replica's JGroups stack from {@code jgroups/tcp-fifo.xml} or {@code jgroups/tcp-total.xml}:
 * substitutes the {@code ${vpki.replication.*}} placeholders from the {@link ReplicationConfig} (not from
 * system properties, which are JVM-wide), then keeps only the selected discovery protocol, and puts
 * {@link PeerDelay} above the transport when the configuration has emulated delays (experiments).
 */
final class JGroupsStack {

    static final String FIFO_RESOURCE = "jgroups/tcp-fifo.xml";
    static final String TOTAL_RESOURCE = "jgroups/tcp-total.xml";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]+)}");
    private static final List<String> DISCOVERY_PROTOCOLS = List.of("TCPPING", "DNS_PING", "S3_PING");

    private JGroupsStack() {
    }

    static ProtocolStackConfigurator configure(ReplicationConfig config) {
        String resource = config.order() == ReplicationConfig.Order.TOTAL ? TOTAL_RESOURCE : FIFO_RESOURCE;
        String xml = substitute(read(resource), placeholders(config));
        XmlConfigurator parsed;
        try {
            parsed = XmlConfigurator.getInstance(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse " + resource, e);
        }
        String selected = discoveryProtocol(config.discovery());
        List<ProtocolConfiguration> protocols = new ArrayList<>(parsed.getProtocolStack().stream()
                .filter(protocol -> {
                    String name = simpleName(protocol.getProtocolName());
                    return !DISCOVERY_PROTOCOLS.contains(name) || name.equals(selected);
                })
                .toList());
        if (!config.emulatedDelays().isEmpty()) {
            // right above the transport: each received message delayed once, by its sender's delay
            protocols.add(1, new ProtocolConfiguration(PeerDelay.class.getName(),
                    new HashMap<>(Map.of("delays", PeerDelay.format(config.emulatedDelays())))));
        }
        return new SelectedStack(List.copyOf(protocols));
    }

    static Map<String, String> placeholders(ReplicationConfig config) {
        Map<String, String> values = new HashMap<>();
        values.put("vpki.replication.bind-address", config.bindAddress());
        values.put("vpki.replication.bind-port", Integer.toString(config.bindPort()));
        values.put("vpki.replication.initial-hosts", "");
        values.put("vpki.replication.dns-query", "");
        values.put("vpki.replication.dns-record-type", "A");
        values.put("vpki.replication.s3-bucket", "");
        values.put("vpki.replication.s3-region", "");
        if (config.discovery() instanceof ReplicationConfig.Discovery.TcpPing tcp) {
            values.put("vpki.replication.initial-hosts", tcp.initialHosts());
        } else if (config.discovery() instanceof ReplicationConfig.Discovery.DnsPing dns) {
            values.put("vpki.replication.dns-query", dns.query());
            values.put("vpki.replication.dns-record-type", dns.query().startsWith("_") ? "SRV" : "A");
        } else if (config.discovery() instanceof ReplicationConfig.Discovery.S3Ping s3) {
            values.put("vpki.replication.s3-bucket", s3.bucket());
            values.put("vpki.replication.s3-region", s3.region());
        }
        Duration failureDetection = config.timeouts().failureDetection();
        values.put("vpki.replication.failure-detection-timeout", failureDetection.toMillis() + "ms");
        values.put("vpki.replication.heartbeat-interval", Math.max(100, failureDetection.toMillis() / 4) + "ms");
        values.put("vpki.replication.join-timeout", config.timeouts().join().toMillis() + "ms");
        ReplicationConfig.Tls tls = config.tls();
        values.put("vpki.replication.tls-enabled", Boolean.toString(tls.enabled()));
        values.put("vpki.replication.tls-client-auth", tls.enabled() ? "NEED" : "NONE");
        values.put("vpki.replication.tls-key-store", tls.enabled() ? tls.keyStore().toAbsolutePath().toString() : "");
        values.put("vpki.replication.tls-key-store-password", tls.enabled() ? tls.keyStorePassword() : "");
        values.put("vpki.replication.tls-trust-store", tls.enabled() ? tls.trustStore().toAbsolutePath().toString() : "");
        values.put("vpki.replication.tls-trust-store-password", tls.enabled() ? tls.trustStorePassword() : "");
        return values;
    }

    private static String discoveryProtocol(ReplicationConfig.Discovery discovery) {
        if (discovery instanceof ReplicationConfig.Discovery.TcpPing) {
            return "TCPPING";
        }
        if (discovery instanceof ReplicationConfig.Discovery.DnsPing) {
            return "DNS_PING";
        }
        return "S3_PING";
    }

    static String substitute(String template, Map<String, String> values) {
        Matcher matcher = PLACEHOLDER.matcher(template);
        StringBuilder result = new StringBuilder(template.length());
        while (matcher.find()) {
            String value = values.get(matcher.group(1));
            if (value == null) {
                throw new IllegalArgumentException("no value for placeholder ${" + matcher.group(1) + "}");
            }
            matcher.appendReplacement(result, Matcher.quoteReplacement(escapeXml(value)));
        }
        matcher.appendTail(result);
        return result.toString();
    }

    private static String escapeXml(String value) {
        return value.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String simpleName(String protocolName) {
        return protocolName.substring(protocolName.lastIndexOf('.') + 1);
    }

    private static String read(String resource) {
        try (InputStream in = JGroupsStack.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The parsed stack with the unselected discovery protocols removed. */
    private record SelectedStack(List<ProtocolConfiguration> protocols) implements ProtocolStackConfigurator {
        @Override
        public String getProtocolStackString() {
            StringBuilder text = new StringBuilder();
            for (ProtocolConfiguration protocol : protocols) {
                text.append(text.isEmpty() ? "" : ":").append(protocol.getProtocolString());
            }
            return text.toString();
        }

        @Override
        public List<ProtocolConfiguration> getProtocolStack() {
            return protocols;
        }
    }
}
