package eu.vpki.shell.tls;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code vpki.tls.*}: how a service's own clients verify the https URLs of other services.
 *
 * @param clientBundle the Spring Boot SSL bundle whose trust store holds the CA that issued the TLS
 *                     certificates of the ETSI endpoints this service calls (e.g.
 *                     {@code spring.ssl.bundle.pem.<name>.truststore.certificate}); unset (default): the
 *                     JDK's public CAs, enough for plain-HTTP peers and for peers with public certificates
 */
@ConfigurationProperties("vpki.tls")
public record ClientTlsProperties(String clientBundle) {
}
