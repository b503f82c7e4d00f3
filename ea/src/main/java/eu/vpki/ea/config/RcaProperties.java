package eu.vpki.ea.config;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.nio.file.Path;

/** {@code vpki.rca.certificate-file}: the RCA certificate (COER) the CTL must be signed by. */
@ConfigurationProperties("vpki.rca")
public record RcaProperties(Path certificateFile) {
}
