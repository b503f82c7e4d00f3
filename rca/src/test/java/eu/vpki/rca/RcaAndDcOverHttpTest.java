package eu.vpki.rca;

import eu.vpki.common.distribution.DistributionPaths;
import eu.vpki.common.distribution.TrustListClient;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts102941.CaCertificateRequestMessages;
import eu.vpki.common.etsi.ts102941.CtlDelete;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.testing.PublishedFile;
import eu.vpki.common.testing.TestPorts;
import eu.vpki.common.testing.TestTls;
import eu.vpki.dc.DcApplication;
import eu.vpki.shell.openapi.UndeclaredProblems;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The real Root CA (its port speaking TLS only, as in the local cluster) and two real DCs over HTTP (the
 * DCs pull from the RCA over https, trusting the test TLS CA), as a vehicle and an operator see them: certify, fetch,
 * verify, revoke, restart. One RCA data directory for the whole class; tests run in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RcaAndDcOverHttpTest {
    static final String TOKEN = "test-admin-token-0123456789";
    static final SecureRandom RANDOM = new SecureRandom();
    /** Trusts the test TLS CA: the RCA's port speaks TLS only, as in the local cluster; the DCs speak plain HTTP. */
    static final HttpClient HTTP = TestTls.loopback().client();
    static final Duration WAIT = Duration.ofSeconds(60);

    static Path dir;
    static int rcaPort;
    static int dc1Port;
    static int dc2Port;
    static ConfigurableApplicationContext rca;
    static ConfigurableApplicationContext dc1;
    static ConfigurableApplicationContext dc2;
    static EtsiCertificate root;
    static EtsiCertificate ea;
    static EtsiCertificate aa;

    @BeforeAll
    static void start() throws IOException {
        dir = Files.createTempDirectory("vpki-rca-dc-test");
        Files.writeString(dir.resolve("keystore-password"), "keystore-password-for-tests\n");
        Files.writeString(dir.resolve("admin-token"), TOKEN + "\n");
        rcaPort = freePort();
        dc1Port = freePort();
        dc2Port = freePort();
        rca = startRca();
        root = EtsiCertificate.decode(get(rcaUrl("/rca/certificate")).body());
        Files.write(dir.resolve("rca.cert"), root.encoded());
        // DC 1 trusts the certificate file; DC 2 bootstraps by a pinned HashedId8, fetching the certificate from the RCA
        dc1 = startDc(dc1Port, "dc1", "--vpki.rca.certificate-file=" + dir.resolve("rca.cert"));
        dc2 = startDc(dc2Port, "dc2", "--vpki.dc.trusted-rca=" + root.hashedId8().toHex());
    }

    @AfterAll
    static void stop() throws IOException {
        Stream.of(dc2, dc1, rca).filter(c -> c != null && c.isActive()).forEach(ConfigurableApplicationContext::close);
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** The admin API answered only problems its OpenAPI description lists (the shell's UndeclaredProblems). */
    @AfterEach
    void everyAnsweredProblemIsDescribed() {
        if (rca != null && rca.isActive()) {
            assertThat(rca.getBean(UndeclaredProblems.class).take()).as("problems the published OpenAPI does not list").isEmpty();
        }
    }

    static ConfigurableApplicationContext startRca() {
        List<String> args = new java.util.ArrayList<>(List.of(
                "--server.port=" + rcaPort, "--server.address=127.0.0.1", "--spring.application.name=vpki-rca",
                "--management.server.port=0", "--vpki.audit.dir=" + dir.resolve("audit"), "--vpki.audit.instance=rca",
                "--vpki.rca.data-dir=" + dir.resolve("rca"), "--vpki.rca.name=Test Root", "--vpki.rca.curve=nistP256",
                "--vpki.rca.renewal-check-interval=PT1S",
                "--vpki.keystore.path=" + dir.resolve("rca/rca.p12"), "--vpki.keystore.password-file=" + dir.resolve("keystore-password"),
                "--vpki.admin.token-file=" + dir.resolve("admin-token"),
                "--vpki.dc.urls=http://127.0.0.1:" + dc1Port + "/,http://127.0.0.1:" + dc2Port + "/"));
        args.addAll(TestTls.loopback().serverArguments());
        return new SpringApplicationBuilder(RcaApplication.class).run(args.toArray(String[]::new));
    }

    static ConfigurableApplicationContext startDc(int port, String name, String trust) {
        return new SpringApplicationBuilder(DcApplication.class).run(
                "--server.port=" + port, "--server.address=127.0.0.1", "--spring.application.name=vpki-" + name,
                "--management.server.port=0", "--vpki.audit.dir=" + dir.resolve("audit"), "--vpki.audit.instance=" + name,
                "--vpki.dc.data-dir=" + dir.resolve(name), "--vpki.rca.url=https://127.0.0.1:" + rcaPort + "/", trust,
                // the DC's pulls from the RCA trust the CA of the RCA's TLS certificate
                "--vpki.rca.ssl-bundle=rca", "--spring.ssl.bundle.pem.rca.truststore.certificate=file:"
                        + TestTls.loopback().caCertificate());
    }

    static int freePort() throws IOException {
        return TestPorts.free();
    }

    static URI rcaUrl(String path) {
        return URI.create("https://127.0.0.1:" + rcaPort + path);
    }

    static URI dc(int port) {
        return URI.create("http://127.0.0.1:" + port + "/");
    }

    static HttpResponse<byte[]> get(URI uri, String... headers) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(uri).GET();
            if (headers.length > 0) {
                b.headers(headers);
            }
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    static HttpResponse<String> post(String path, String contentType, byte[] body, String token) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(rcaUrl(path)).POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .header("Content-Type", contentType);
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    static HttpResponse<String> postJson(String path, String json, String token) {
        return post(path, "application/json", json.getBytes(), token);
    }

    static String hex(EtsiKeyPair k) {
        return HexFormat.of().formatHex(k.publicKey().compressed());
    }

    static String field(String json, String name) {
        var m = java.util.regex.Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        return m.find() ? m.group(1) : null;
    }

    static RcaCtl ctlFrom(int port) {
        return TrustLists.readCtl(get(DistributionPaths.ctl(dc(port), root.hashedId8())).body(), root);
    }

    static String eaJson(EtsiKeyPair v, EtsiKeyPair e) {
        return """
                {"type":"EA","name":"ea.test","curve":"nistP256","verificationKey":"%s","encryptionKey":"%s",
                 "itsAccessPoint":"http://127.0.0.1:8083/ea/enrolment","aaAccessPoint":"http://127.0.0.1:8083/ea/authorization-validation",
                 "validityDays":730}""".formatted(hex(v), java.util.Base64.getEncoder().encodeToString(e.publicKey().uncompressed()));
    }

    @Test
    @Order(1)
    void certifiedEaAndAa_areListedWithAccessPointsInTheCtlEveryDcServes() {
        EtsiKeyPair eaKey = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        HttpResponse<String> eaAnswer = postJson("/admin/authorities", eaJson(eaKey, EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM)),
                TOKEN);
        assertThat(eaAnswer.statusCode()).as(eaAnswer.body()).isEqualTo(201);
        ea = EtsiCertificate.decode(java.util.Base64.getDecoder().decode(field(eaAnswer.body(), "certificate")));
        assertThat(field(eaAnswer.body(), "hashedId8")).isEqualTo(ea.hashedId8().toHex());
        assertThat(ea.verificationKey()).isEqualTo(eaKey.publicKey());

        HttpResponse<String> aaAnswer = postJson("/admin/authorities", """
                {"type":"AA","name":"aa.test","curve":"brainpoolP256r1","verificationKey":"%s","encryptionKey":"%s",
                 "accessPoint":"http://127.0.0.1:8085/aa/authorization"}""".formatted(
                hex(EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM)),
                hex(EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM))), TOKEN);
        assertThat(aaAnswer.statusCode()).as(aaAnswer.body()).isEqualTo(201);
        aa = EtsiCertificate.decode(java.util.Base64.getDecoder().decode(field(aaAnswer.body(), "certificate")));

        // a vehicle knowing only the RCA certificate and the DC addresses
        for (int port : new int[]{dc1Port, dc2Port}) {
            await().atMost(WAIT).untilAsserted(() -> assertThat(ctlFrom(port).authorizationAuthorities()).hasSize(1));
        }
        TrustListClient vehicle = new TrustListClient(List.of(URI.create("http://127.0.0.1:1/"), dc(dc1Port), dc(dc2Port)), root,
                TrustListClient.Options.defaults());
        vehicle.refresh(Instant.now());
        RcaCtl ctl = vehicle.ctl().orElseThrow();
        assertThat(ctl.enrolmentAuthorities()).singleElement().satisfies(e -> {
            assertThat(e.certificate()).isEqualTo(ea);
            assertThat(e.itsAccessPoint()).isEqualTo("http://127.0.0.1:8083/ea/enrolment");
            assertThat(e.aaAccessPoint()).isEqualTo("http://127.0.0.1:8083/ea/authorization-validation");
        });
        assertThat(ctl.authorizationAuthorities()).singleElement().satisfies(a -> {
            assertThat(a.certificate()).isEqualTo(aa);
            assertThat(a.accessPoint()).isEqualTo("http://127.0.0.1:8085/aa/authorization");
        });
        assertThat(ctl.distributionCentres()).extracting(d -> d.url()).containsExactly(dc(dc1Port).toString(), dc(dc2Port).toString());
        assertThat(vehicle.current().validate(aa, Instant.now())).containsExactly(aa, root);
        assertThat(vehicle.current().validate(ea, Instant.now())).containsExactly(ea, root);
    }

    @Test
    @Order(2)
    void dc_servesWithTheEtsiContentTypesAndCachingHeaders() {
        String hex = root.hashedId8().toHex();
        HttpResponse<byte[]> ctl = get(DistributionPaths.ctl(dc(dc1Port), root.hashedId8()));
        assertThat(ctl.statusCode()).isEqualTo(200);
        assertThat(ctl.headers().firstValue("Content-Type")).contains("application/x-its-ctl");
        String etag = ctl.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).isEqualTo(DistributionPaths.etag(ctl.body()));
        long maxAge = Long.parseLong(ctl.headers().firstValue("Cache-Control").orElseThrow().replaceAll(".*max-age=(\\d+).*", "$1"));
        assertThat(maxAge).isBetween(Duration.ofDays(7).minusMinutes(5).toSeconds(), Duration.ofDays(7).toSeconds());
        assertThat(get(DistributionPaths.ctl(dc(dc1Port), root.hashedId8()), "If-None-Match", etag).statusCode()).isEqualTo(304);

        HttpResponse<byte[]> crl = get(DistributionPaths.crl(dc(dc2Port), root.hashedId8()));
        assertThat(crl.headers().firstValue("Content-Type")).contains("application/x-its-crl");
        assertThat(TrustLists.readCrl(crl.body(), root).revoked()).isEmpty();

        HttpResponse<byte[]> cert = get(URI.create(dc(dc1Port) + "getcert/" + hex));
        assertThat(cert.headers().firstValue("Content-Type")).contains("application/octet-stream");
        assertThat(EtsiCertificate.decode(cert.body())).isEqualTo(root);

        HttpResponse<byte[]> unknown = get(URI.create(dc(dc1Port) + "getctl/0011223344556677"));
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.headers().firstValue("Content-Type")).contains("application/problem+json");
        assertThat(new String(unknown.body())).contains("\"code\":503");

        RcaCtl delta = TrustLists.readCtl(get(DistributionPaths.deltaCtl(dc(dc1Port), root.hashedId8())).body(), root);
        assertThat(delta.full()).isFalse();
        assertThat(delta.sequence()).isEqualTo(ctlFrom(dc1Port).sequence());
    }

    @Test
    @Order(3)
    void adminApiDescription_isServedWithoutToken_andIsThePublishedOne() {
        HttpResponse<byte[]> r = get(rcaUrl("/openapi.yaml"));
        assertThat(r.statusCode()).isEqualTo(200);
        String yaml = new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(yaml).startsWith("openapi: 3.1").contains("/admin/authorities/{hashedId8}/revoke", "application/problem+json",
                "scheme: bearer").doesNotContain("/rca/ctl:");
        PublishedFile.check(Path.of("../docs/openapi/rca-admin.yaml"), yaml);
    }

    @Test
    @Order(3)
    void badAdminInput_andBadCredentials_areRefusedAndChangeNothing() {
        byte[] ctlBefore = get(rcaUrl("/rca/ctl")).body();
        String listBefore = new String(get(rcaUrl("/admin/authorities"), "Authorization", "Bearer " + TOKEN).body());
        EtsiKeyPair v = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        EtsiKeyPair e = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        String good = eaJson(v, e);

        record Case(String body, String token, int status, String mention) {
        }
        List<Case> cases = List.of(
                new Case(good.replace(hex(v), "03deadbeef"), TOKEN, 400, "verificationKey"),
                new Case(good.replace("nistP256", "secp999r1"), TOKEN, 400, "curve"),
                new Case(good.replace("\"itsAccessPoint\":\"http://127.0.0.1:8083/ea/enrolment\",", ""), TOKEN, 400, "itsAccessPoint"),
                new Case(good.replace("http://127.0.0.1:8083/ea/authorization-validation", "not a url"), TOKEN, 400, "aaAccessPoint"),
                new Case("{not json", TOKEN, 400, "JSON"),
                new Case(good, "wrong-token-0123456789", 401, "not valid"),
                new Case(good, null, 401, "Authorization"));
        for (Case c : cases) {
            HttpResponse<String> r = postJson("/admin/authorities", c.body(), c.token());
            assertThat(r.statusCode()).as(c.body() + " -> " + r.body()).isEqualTo(c.status());
            assertThat(r.headers().firstValue("Content-Type")).contains("application/problem+json");
            assertThat(r.body()).contains(c.mention()).contains("\"code\"").contains("\"error\"");
        }
        HttpResponse<String> unauthorized = postJson("/admin/authorities", good, null);
        assertThat(unauthorized.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(h -> assertThat(h).startsWith("Bearer"));
        assertThat(get(rcaUrl("/admin/authorities")).statusCode()).isEqualTo(401);
        assertThat(
                post("/admin/authorities/" + aa.hashedId8().toHex() + "/revoke", "application/json", new byte[0], "wrong-token-0123456789")
                        .statusCode())
                .isEqualTo(401);

        assertThat(get(rcaUrl("/rca/ctl")).body()).isEqualTo(ctlBefore);
        assertThat(new String(get(rcaUrl("/admin/authorities"), "Authorization", "Bearer " + TOKEN).body())).isEqualTo(listBefore);
    }

    @Test
    @Order(3)
    void adminApiOverPlainHttp_withTheValidToken_getsNoSuccess_andCertifiesNothing() throws Exception {
        String listBefore = new String(get(rcaUrl("/admin/authorities"), "Authorization", "Bearer " + TOKEN).body());
        String good = eaJson(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM), EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM));
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rcaPort
                + "/admin/authorities")).header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(good)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).as("the port speaks TLS only: Tomcat refuses the plain request").isEqualTo(400);
        assertThat(new String(get(rcaUrl("/admin/authorities"), "Authorization", "Bearer " + TOKEN).body())).isEqualTo(listBefore);
    }

    @Test
    @Order(4)
    void caCertificateRequest_certifiesTheRequestedKey() {
        EtsiKeyPair v = EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM);
        EtsiKeyPair e = EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM);
        byte[] request = CaCertificateRequestMessages.request(new CaCertificateRequestMessages.CaRequest("aa2.test", v.publicKey(),
                e.publicKey(), null, null, null, null, null), new SoftwareSigner(v, RANDOM), Instant.now());
        HttpResponse<String> r = post(
                "/admin/authorities/ca-certificate-request?type=AA&accessPoint=http://127.0.0.1:8086/aa/authorization",
                "application/x-its-request", request, TOKEN);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        EtsiCertificate issued = EtsiCertificate.decode(java.util.Base64.getDecoder().decode(field(r.body(), "certificate")));
        assertThat(issued.verificationKey()).isEqualTo(v.publicKey());
        assertThat(issued.name()).contains("aa2.test");
        await().atMost(WAIT).untilAsserted(() -> assertThat(ctlFrom(dc1Port).authorizationAuthorities()).hasSize(2));

        HttpResponse<String> missing = post("/admin/authorities/ca-certificate-request?type=AA", "application/x-its-request", request,
                TOKEN);
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(missing.body()).contains("accessPoint");
    }

    @Test
    @Order(5)
    void revokedAa_leavesTheNextCtlAndEntersTheCrl() {
        int before = ctlFrom(dc1Port).sequence();
        HttpResponse<String> r = postJson("/admin/authorities/" + aa.hashedId8().toHex() + "/revoke", "{\"reason\":\"test\"}", TOKEN);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("\"revoked\":true");

        for (int port : new int[]{dc1Port, dc2Port}) {
            await().atMost(WAIT).untilAsserted(() -> {
                RcaCtl ctl = ctlFrom(port);
                assertThat(ctl.sequence()).isEqualTo(before + 1);
                assertThat(ctl.authorizationAuthorities()).extracting(a -> a.certificate().hashedId8()).doesNotContain(aa.hashedId8());
                assertThat(ctl.enrolmentAuthorities()).hasSize(1);
                assertThat(TrustLists.readCrl(get(DistributionPaths.crl(dc(port), root.hashedId8())).body(), root).revoked())
                        .containsExactly(aa.hashedId8());
            });
        }
        RcaCtl delta = TrustLists.readCtl(get(DistributionPaths.deltaCtl(dc(dc2Port), root.hashedId8())).body(), root);
        assertThat(delta.deletions()).containsExactly(new CtlDelete.Certificate(aa.hashedId8()));
        assertThat(postJson("/admin/authorities/00112233445566ZZ/revoke", "{}", TOKEN).statusCode()).isEqualTo(400);
        assertThat(postJson("/admin/authorities/0011223344556677/revoke", "{}", TOKEN).statusCode()).isEqualTo(404);
    }

    @Test
    @Order(6)
    void dc_refusesListsNotSignedByItsRcaAndOlderLists() throws Exception {
        TestPki other = new TestPki(EtsiCurve.NIST_P256);
        byte[] foreign = TrustLists.signCtl(new RcaCtl(true, 200, Instant.now().plus(Duration.ofDays(1)), List.of(), List.of()),
                Instant.now(), other.rootSigner(), other.root);
        for (String target : new String[]{root.hashedId8().toHex(), other.root.hashedId8().toHex()}) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(dc(dc1Port) + "publish/" + target + "/ctl"))
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(foreign)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
            assertThat(r.body()).contains("UNKNOWN_SIGNER");
        }
        assertThat(ctlFrom(dc1Port).enrolmentAuthorities()).hasSize(1);
    }

    @Test
    @Order(7)
    void restartedRca_keepsItsRootKeyStateAndSequence() {
        byte[] ctlBefore = get(rcaUrl("/rca/ctl")).body();
        int sequenceBefore = TrustLists.readCtl(ctlBefore, root).sequence();
        rca.close();
        rca = startRca();

        assertThat(EtsiCertificate.decode(get(rcaUrl("/rca/certificate")).body())).isEqualTo(root);
        assertThat(get(rcaUrl("/rca/ctl")).body()).isEqualTo(ctlBefore);
        assertThat(new String(get(rcaUrl("/admin/authorities"), "Authorization", "Bearer " + TOKEN).body()))
                .contains(ea.hashedId8().toHex()).contains(aa.hashedId8().toHex());

        HttpResponse<String> next = postJson("/admin/authorities", eaJson(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM),
                EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM)), TOKEN);
        assertThat(next.statusCode()).isEqualTo(201);
        assertThat(TrustLists.readCtl(get(rcaUrl("/rca/ctl")).body(), root).sequence()).isEqualTo(sequenceBefore + 1);
        // both DCs: the next test compares dc2's list before and after its restart, so dc2 must hold the newest one
        for (int port : new int[]{dc1Port, dc2Port}) {
            await().atMost(WAIT).untilAsserted(() -> assertThat(ctlFrom(port).sequence()).isEqualTo(sequenceBefore + 1));
        }
    }

    @Test
    @Order(8)
    void dcRestartedEmpty_recoversTheListsFromTheRca() throws IOException {
        // the RCA pushes to both DCs; the test before waited for dc1 only, so dc2 may still be receiving
        int rcaSequence = TrustLists.readCtl(get(rcaUrl("/rca/ctl")).body(), root).sequence();
        await().atMost(WAIT).untilAsserted(() -> assertThat(ctlFrom(dc2Port).sequence()).isEqualTo(rcaSequence));
        byte[] ctl = get(DistributionPaths.ctl(dc(dc2Port), root.hashedId8())).body();
        dc2.close();
        try (Stream<Path> files = Files.walk(dir.resolve("dc2"))) {
            files.sorted(java.util.Comparator.reverseOrder()).filter(p -> !p.toString().endsWith(".cert") && !p.endsWith("trust")
                    && !p.equals(dir.resolve("dc2"))).forEach(p -> p.toFile().delete());
        }
        assertThat(dir.resolve("dc2").resolve(root.hashedId8().toHex())).doesNotExist();
        dc2 = startDc(dc2Port, "dc2", "--vpki.dc.trusted-rca=" + root.hashedId8().toHex());

        assertThat(get(DistributionPaths.ctl(dc(dc2Port), root.hashedId8())).body()).isEqualTo(ctl);
        assertThat(get(DistributionPaths.crl(dc(dc2Port), root.hashedId8())).statusCode()).isEqualTo(200);
    }

    @Test
    @Order(9)
    void metrics_areExposedForPrometheus_onTheManagementPortOnly() {
        String rcaMetrics = new String(get(management(rca, "/actuator/prometheus")).body());
        assertThat(rcaMetrics).contains("vpki_rca_certificates_issued_total{type=\"EA\"} 1") // after the restart: this process issued one
                .contains("vpki_rca_ctl_sequence").contains("vpki_rca_crl_age_seconds").contains("http_server_requests_seconds");
        String dcMetrics = new String(get(management(dc1, "/actuator/prometheus")).body());
        assertThat(dcMetrics).contains("vpki_dc_ctl_sequence{rca=\"" + root.hashedId8().toHex() + "\"}")
                .contains("vpki_dc_lists_received_total").contains("vpki_dc_crl_age_seconds");
        assertThat(get(management(dc1, "/actuator/health")).statusCode()).isEqualTo(200);
        assertThat(get(management(rca, "/actuator/health")).statusCode()).isEqualTo(200);
        assertThat(get(URI.create(dc(dc1Port) + "actuator/prometheus")).statusCode()).isEqualTo(404);
        assertThat(get(rcaUrl("/actuator/health")).statusCode()).isEqualTo(404);
    }

    /** A URL on the service's management (actuator) port. */
    static URI management(ConfigurableApplicationContext service, String path) {
        return URI.create("http://127.0.0.1:" + service.getEnvironment().getProperty("local.management.port") + path);
    }
}
