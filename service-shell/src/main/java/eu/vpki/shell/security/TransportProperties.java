package eu.vpki.shell.security;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code vpki.security.require-tls}: whether a bearer-token API answers only requests that arrived
 * over TLS (default {@code true}). A request over plain HTTP is refused 403 {@code TLS_REQUIRED}
 * before its token is looked at, so a token sent in clear is never accepted (it must be taken as
 * disclosed: the refusal is logged at WARN). {@code false} is for tests and for a port that only a
 * TLS-terminating proxy on the same host reaches (docs/security.md).
 */
@ConfigurationProperties("vpki.security")
public record TransportProperties(@DefaultValue("true") boolean requireTls) {
}
