package eu.vpki.rca.config;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.nio.file.Path;

/** {@code vpki.keystore.*}: the PKCS#12 key store with the root key; password from a file or {@code VPKI_KEYSTORE_PASSWORD}. */
@Validated
@ConfigurationProperties("vpki.keystore")
public record KeyStoreProperties(@DefaultValue("./data/rca.p12") @NotNull Path path, Path passwordFile) {
}
