package eu.vpki.aa.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.nio.file.Path;

/** {@code vpki.keystore.*}: the PKCS#12 file and its password file (else env {@code VPKI_KEYSTORE_PASSWORD}). */
@ConfigurationProperties("vpki.keystore")
public record KeystoreProperties(@DefaultValue("./data/aa.p12") Path path, Path passwordFile) {
}
