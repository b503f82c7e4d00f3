package eu.vpki.rca;

import eu.vpki.admin.AdminTool;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.CertificateChecks;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.testing.SoftHsm;
import eu.vpki.common.testing.TestPorts;
import eu.vpki.common.testing.TestTls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The RCA with its root key in a real SoftHSM2 token (issue #36), started as an operator would after the key
 * ceremony: {@code vpki-admin ceremony --authority rca} makes the key and the root certificate in the token, the
 * certificate goes into the data directory, and the RCA runs with {@code vpki.keystore.backend=pkcs11}. It signs
 * its CTL and CRL and an EA's certificate through the token; a wrong PIN, a token without the root key, or a root
 * key on another curve than the certificate's stop the start with a message naming the cause; the token removed
 * while serving gives health DOWN and certifies nothing.
 */
@Tag("softhsm")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RcaPkcs11Test {
    private static final String ADMIN_TOKEN = "rca-token-test-admin-0123456789";
    private static final HttpClient HTTP = TestTls.loopback().client();
    private static final SecureRandom RANDOM = new SecureRandom();

    @TempDir
    static Path dir;
    /** The token of the RCA under test, its root key on brainpoolP384r1. */
    static Pkcs11Settings token;
    /** A token with a root key on nistP256, from another ceremony. */
    static Pkcs11Settings otherCurve;
    /** A token without any key. */
    static Pkcs11Settings empty;
    static Path pin;
    static EtsiCertificate root;
    static ConfigurableApplicationContext rca;
    static int port;
    static String health;

    @BeforeAll
    static void ceremonies() throws IOException {
        // every token before the module is first loaded in this JVM: it sees only the tokens that exist then (SoftHsm)
        token = SoftHsm.createToken("rca-token-test");
        otherCurve = SoftHsm.createToken("rca-other-curve");
        empty = SoftHsm.createToken("rca-no-key");
        pin = Files.writeString(dir.resolve("pin"), SoftHsm.PIN + "\n");
        assertThat(ceremony(token, "brainpoolP384r1", dir.resolve("ceremony"))).isZero();
        assertThat(ceremony(otherCurve, "nistP256", dir.resolve("ceremony-p256"))).isZero();
        root = EtsiCertificate.decode(Files.readAllBytes(dir.resolve("ceremony/rca-root.cert")));
        Files.writeString(dir.resolve("admin-token"), ADMIN_TOKEN + "\n");
    }

    @AfterAll
    static void stop() {
        if (rca != null && rca.isActive()) {
            rca.close();
        }
    }

    /** {@code vpki-admin ceremony --authority rca}, as docs/pki-bootstrap.md section 7 runs it. */
    static int ceremony(Pkcs11Settings settings, String curve, Path out) {
        return new CommandLine(new AdminTool()).execute("ceremony", "--authority", "rca", "--name", "rca.token.test", "--curve", curve,
                "--validity-years", "8", "--module", settings.library().toString(), "--slot", settings.slot().toString(),
                "--pin-file", pin.toString(), "--out", out.toString());
    }

    /** A data directory holding the ceremony's root certificate, as the operator copies it there. */
    static Path dataDir(String name, Path certificate) throws IOException {
        Path data = Files.createDirectories(dir.resolve(name));
        Files.copy(certificate, data.resolve("rca-root.cert"));
        return data;
    }

    static ConfigurableApplicationContext start(Pkcs11Settings settings, Path pinFile, Path dataDir) throws IOException {
        port = TestPorts.free();
        List<String> args = new ArrayList<>(List.of("--server.port=" + port, "--server.address=127.0.0.1",
                "--spring.application.name=vpki-rca", "--management.server.port=0", "--management.server.address=127.0.0.1",
                "--vpki.audit.dir=" + dir.resolve("audit"), "--vpki.audit.instance=rca", "--vpki.rca.data-dir=" + dataDir,
                // the default curve (brainpoolP256r1) stays: with a token the ceremony chose the curve
                "--vpki.admin.token-file=" + dir.resolve("admin-token"),
                // a DC nobody listens on: the RCA lists it and its publications fail, logged, which the RCA survives
                "--vpki.dc.urls=http://127.0.0.1:" + TestPorts.free() + "/",
                "--vpki.keystore.backend=pkcs11", "--vpki.keystore.pkcs11.library=" + settings.library(),
                "--vpki.keystore.pkcs11.slot=" + settings.slot(), "--vpki.keystore.pkcs11.pin-file=" + pinFile,
                // where a software key store would go: nothing may be created there
                "--vpki.keystore.path=" + dataDir.resolve("rca.p12")));
        args.addAll(TestTls.loopback().serverArguments());
        return new SpringApplicationBuilder(RcaApplication.class).run(args.toArray(String[]::new));
    }

    @Test
    @Order(1)
    void wrongPin_stopsTheStart() throws IOException {
        Path wrong = Files.writeString(dir.resolve("wrong-pin"), "not-the-pin\n");
        Path data = dataDir("data-wrong-pin", dir.resolve("ceremony/rca-root.cert"));
        assertThatThrownBy(() -> start(token, wrong, data)).rootCause().hasMessageContaining("CKR_PIN_INCORRECT");
        assertThat(data.resolve("rca.p12")).doesNotExist();
    }

    @Test
    @Order(2)
    void tokenWithoutTheRootKey_stopsTheStart_namingTheLabel() throws IOException {
        Path data = dataDir("data-no-key", dir.resolve("ceremony/rca-root.cert"));
        assertThatThrownBy(() -> start(empty, pin, data)).hasStackTraceContaining("KEY_STORE_FAILURE")
                .hasStackTraceContaining("has no key labelled 'rca-root'").hasStackTraceContaining("vpki.keystore.pkcs11.slot");
        assertThat(data.resolve("rca.p12")).doesNotExist();
        assertThat(Files.readAllBytes(data.resolve("rca-root.cert"))).isEqualTo(root.encoded());
    }

    @Test
    @Order(3)
    void rootKeyOnAnotherCurveThanTheCertificate_stopsTheStart() throws IOException {
        // the token's rca-root is on nistP256, the certificate in the data directory on brainpoolP384r1
        Path data = dataDir("data-other-curve", dir.resolve("ceremony/rca-root.cert"));
        assertThatThrownBy(() -> start(otherCurve, pin, data)).hasStackTraceContaining("KEY_STORE_FAILURE")
                .hasStackTraceContaining("is on secp256r1, the configuration expects brainpoolP384r1");
        assertThat(data.resolve("rca.p12")).doesNotExist();
    }

    @Test
    @Order(4)
    void ceremonysRoot_signsTheCtlTheCrlAndCertificates_inTheToken() throws Exception {
        Path data = dataDir("data", dir.resolve("ceremony/rca-root.cert"));
        rca = start(token, pin, data);
        health = "http://127.0.0.1:" + rca.getEnvironment().getProperty("local.management.port") + "/actuator/health";

        assertThat(EtsiCertificate.decode(get("/rca/certificate").body())).isEqualTo(root);
        assertThat(root.verificationKey().curve()).isEqualTo(EtsiCurve.BRAINPOOL_P384R1);
        HttpResponse<String> up = HTTP.send(HttpRequest.newBuilder(URI.create(health)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(up.statusCode()).as(up.body()).isEqualTo(200);
        assertThat(up.body()).contains("\"status\":\"UP\"");
        // the first CTL and CRL, signed by the token at start-up, verify against the ceremony's root
        RcaCtl first = TrustLists.readCtl(get("/rca/ctl").body(), root);
        assertThat(first.enrolmentAuthorities()).isEmpty();
        assertThat(TrustLists.readCrl(get("/rca/crl").body(), root).revoked()).isEmpty();

        EtsiKeyPair eaKey = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        HttpResponse<String> certified = postEa(eaKey);
        assertThat(certified.statusCode()).as(certified.body()).isEqualTo(201);
        EtsiCertificate ea = EtsiCertificate.decode(Base64.getDecoder().decode(field(certified.body(), "certificate")));
        assertThat(ea.verificationKey()).isEqualTo(eaKey.publicKey());
        CertificateChecks.checkIssuedBy(ea, root, Instant.now());
        RcaCtl next = TrustLists.readCtl(get("/rca/ctl").body(), root);
        assertThat(next.sequence()).isEqualTo(first.sequence() + 1);
        assertThat(next.enrolmentAuthorities()).singleElement().satisfies(e -> assertThat(e.certificate()).isEqualTo(ea));

        assertThat(postJson("/admin/authorities/" + ea.hashedId8().toHex() + "/revoke", "{\"reason\":\"test\"}").statusCode())
                .isEqualTo(200);
        assertThat(TrustLists.readCrl(get("/rca/crl").body(), root).revoked()).containsExactly(ea.hashedId8());

        // nothing generated: the root key exists only in the token
        try (Stream<Path> files = Files.list(data)) {
            assertThat(files.map(p -> p.getFileName().toString())).doesNotContain("rca.p12");
        }
    }

    @Test
    @Order(5)
    void tokenRemovedWhileServing_healthDown_andNothingCertified() throws Exception {
        byte[] ctlBefore = get("/rca/ctl").body();
        byte[] crlBefore = get("/rca/crl").body();
        String listBefore = new String(get("/admin/authorities").body());

        SoftHsm.deleteToken("rca-token-test");

        HttpResponse<String> refused = postEa(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM));
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(500);
        assertThat(refused.body()).contains("KEY_STORE_FAILURE").doesNotContain("certificate\":");
        HttpResponse<String> down = HTTP.send(HttpRequest.newBuilder(URI.create(health)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
        assertThat(get("/rca/ctl").body()).isEqualTo(ctlBefore);
        assertThat(get("/rca/crl").body()).isEqualTo(crlBefore);
        assertThat(new String(get("/admin/authorities").body())).isEqualTo(listBefore);
    }

    private static HttpResponse<String> postEa(EtsiKeyPair key) {
        return postJson("/admin/authorities",
                """
                        {"type":"EA","name":"ea.token.test","curve":"nistP256","verificationKey":"%s","encryptionKey":"%s",
                         "itsAccessPoint":"http://127.0.0.1:8083/ea/enrolment","aaAccessPoint":"http://127.0.0.1:8083/ea/authorization-validation"}"""
                        .formatted(HexFormat.of().formatHex(key.publicKey().compressed()),
                                HexFormat.of().formatHex(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM).publicKey().compressed())));
    }

    private static String field(String json, String name) {
        var m = java.util.regex.Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        return m.find() ? m.group(1) : null;
    }

    private static HttpResponse<byte[]> get(String path) {
        return send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path)).header("Authorization", "Bearer " + ADMIN_TOKEN)
                .GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static HttpResponse<String> postJson(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path)).header("Authorization", "Bearer " + ADMIN_TOKEN)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return HTTP.send(request, handler);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
