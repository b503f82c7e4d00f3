package eu.vpki.rca.config;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.nio.file.Path;

/** {@code vpki.admin.token-file}: the admin bearer token (else env {@code VPKI_ADMIN_TOKEN}; neither: admin API disabled). */
@ConfigurationProperties("vpki.admin")
public record AdminProperties(Path tokenFile) {
}
