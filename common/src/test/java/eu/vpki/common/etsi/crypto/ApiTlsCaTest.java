package eu.vpki.common.etsi.crypto;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ApiTlsCaTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Instant NOW = Instant.parse("2026-11-24T18:00:00Z");

    @Test
    void serverCertificate_isSignedByTheCa_forServerAuthOnly_withItsNames_andItsKeyIsPrivate(@TempDir Path dir) throws Exception {
        ApiTlsCa ca = ApiTlsCa.generate("test CA", NOW, Duration.ofDays(10), RANDOM);
        ca.write(dir.resolve("ca.crt"), dir.resolve("ca.key"));

        ApiTlsCa.Issued issued = ca.issueServer("operator", List.of("10.0.1.100", "10.1.1.100", "operator.vpki.internal"), NOW,
                Duration.ofDays(5), RANDOM, dir);

        X509Certificate server = issued.certificate();
        server.verify(ca.certificate().getPublicKey());
        assertThat(server.getSubjectX500Principal().getName()).isEqualTo("CN=operator");
        assertThat(server.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
        assertThat(server.getBasicConstraints()).isEqualTo(-1);
        assertThat(server.getSubjectAlternativeNames()).extracting(n -> n.get(0) + "=" + n.get(1))
                .containsExactly("7=10.0.1.100", "7=10.1.1.100", "2=operator.vpki.internal");
        assertThat(server.getNotAfter().toInstant()).isEqualTo(NOW.plus(Duration.ofDays(5)));
        assertThat(ApiTlsCa.certificates(issued.certificateChain())).extracting(X509Certificate::getSubjectX500Principal)
                .containsExactly(server.getSubjectX500Principal(), ca.certificate().getSubjectX500Principal());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(issued.privateKey()))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("ca.key")))).isEqualTo("rw-------");
        assertThat(Files.readString(issued.privateKey())).startsWith("-----BEGIN PRIVATE KEY-----");
    }

    @Test
    void aCaReadBack_issuesCertificatesItsWrittenCertificateVerifies(@TempDir Path dir) throws Exception {
        ApiTlsCa.generate("test CA", NOW, Duration.ofDays(10), RANDOM).write(dir.resolve("ca.crt"), dir.resolve("ca.key"));
        ApiTlsCa read = ApiTlsCa.read(dir.resolve("ca.crt"), dir.resolve("ca.key"));

        X509Certificate issued = read.issueServer("rca", List.of("127.0.0.1"), NOW, Duration.ofDays(1), RANDOM, dir).certificate();

        issued.verify(ApiTlsCa.certificates(dir.resolve("ca.crt")).get(0).getPublicKey());
    }

    @Test
    void badNames_areRefused(@TempDir Path dir) {
        ApiTlsCa ca = ApiTlsCa.generate("test CA", NOW, Duration.ofDays(10), RANDOM);
        assertThatThrownBy(() -> ca.issueServer("rca", List.of(), NOW, Duration.ofDays(1), RANDOM, dir))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ca.issueServer("rca", List.of("not a name!"), NOW, Duration.ofDays(1), RANDOM, dir))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a name!");
        assertThatThrownBy(() -> ca.issueServer("../x", List.of("127.0.0.1"), NOW, Duration.ofDays(1), RANDOM, dir))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
