package eu.vpki.admin;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings;
import eu.vpki.common.etsi.ts102941.CaCertificateRequestMessages;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.testing.SoftHsm;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code vpki-admin ceremony} against a real SoftHSM2 token (issue #36). */
@Tag("softhsm")
class CeremonyCommandTest {
    private static Pkcs11Settings settings;
    @TempDir
    static Path dir;
    private static Path pin;

    @BeforeAll
    static void token() throws Exception {
        settings = SoftHsm.createToken("ceremony-command-test");
        pin = Files.writeString(dir.resolve("pin"), SoftHsm.PIN + "\n");
    }

    private int run(String... args) {
        String[] common = {"ceremony", "--module", settings.library().toString(), "--slot", settings.slot().toString(),
                "--pin-file", pin.toString(), "--out", dir.resolve("out").toString()};
        String[] all = new String[common.length + args.length];
        System.arraycopy(common, 0, all, 0, common.length);
        System.arraycopy(args, 0, all, common.length, args.length);
        return new CommandLine(new AdminTool()).execute(all);
    }

    @Test
    void rootAndSubCaCeremonies_writeTheCertificate_theRequest_andTheRecord() throws Exception {
        assertThat(run("--authority", "rca", "--name", "rca.test", "--curve", "brainpoolP384r1", "--validity-years", "8")).isZero();
        EtsiCertificate root = EtsiCertificate.decode(Files.readAllBytes(dir.resolve("out/rca-root.cert")));
        assertThat(root.selfSigned()).isTrue();
        assertThat(root.verificationKey().curve()).isEqualTo(EtsiCurve.BRAINPOOL_P384R1);
        assertThat(Files.readString(dir.resolve("out/rca-ceremony.txt"))).contains("key 'rca-root'",
                "HashedId8 " + root.hashedId8().toHex());

        assertThat(run("--authority", "ea", "--name", "ea.test", "--curve", "brainpoolP384r1")).isZero();
        var request = CaCertificateRequestMessages.parseRequest(Files.readAllBytes(dir.resolve("out/ea-request.oer")));
        assertThat(request.request().verificationKey().curve()).isEqualTo(EtsiCurve.BRAINPOOL_P384R1);
        assertThat(request.request().encryptionKey().curve()).isEqualTo(EtsiCurve.BRAINPOOL_P256R1);
        assertThat(Files.readString(dir.resolve("out/ea-ceremony.txt"))).contains("key 'ea-signing'", "key 'ea-encryption'");

        // a second ceremony for the same authority replaces nothing
        assertThat(run("--authority", "ea", "--name", "ea.test")).isNotZero();
    }
}
