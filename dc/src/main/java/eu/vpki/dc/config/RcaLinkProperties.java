package eu.vpki.dc.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code vpki.rca.*} as the DC reads it.
 *
 * @param url             the RCA's base URL: lists are pulled from it when the DC is empty and periodically;
 *                        pinned RCA certificates are fetched from it once
 * @param certificateFile RCA certificates (COER) to trust; comma-separated for several
 * @param sslBundle       for an {@code https} {@code url}: the Spring Boot SSL bundle whose trust store holds the CA of
 *                        the RCA's TLS certificate (e.g. {@code spring.ssl.bundle.pem.<name>.truststore.certificate});
 *                        without it, that of {@code vpki.tls.client-bundle}, else the JDK's public CAs
 */
@ConfigurationProperties("vpki.rca")
public record RcaLinkProperties(URI url, @DefaultValue List<Path> certificateFile, String sslBundle) {
}
