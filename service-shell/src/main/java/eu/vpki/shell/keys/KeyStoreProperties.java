package eu.vpki.shell.keys;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.nio.file.Path;

/**
 * {@code vpki.keystore.*}: the PKCS#12 key store of an authority (RCA, EA, AA).
 *
 * @param path         the key store; default {@code ./data/<service>.p12} (service from {@code spring.application.name},
 *                     e.g. {@code vpki-ea} gives {@code ./data/ea.p12})
 * @param passwordFile file whose first line is the password; without it the environment variable
 *                     {@code VPKI_KEYSTORE_PASSWORD}
 */
@ConfigurationProperties("vpki.keystore")
public record KeyStoreProperties(Path path, Path passwordFile) {
    /** Environment variable holding the password when no password file is given. */
    public static final String PASSWORD_ENV = "VPKI_KEYSTORE_PASSWORD";

    /** {@link #path()}, else {@code ./data/<service>.p12}. */
    public Path pathFor(String service) {
        return path != null ? path : Path.of(".", "data", service + ".p12");
    }
}
