package eu.vpki.dc;

import eu.vpki.common.distribution.DistributionPaths;
import eu.vpki.common.distribution.TrustListClient;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.Crl;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.TestPki;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A real DC over HTTP, fed by the test as an RCA would, read by {@link TrustListClient} as a vehicle would. */
class DcOverHttpTest {
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static TestPki pki;
    static TestPki other;
    static Path dir;
    static ConfigurableApplicationContext dc;
    static URI url;

    @BeforeAll
    static void start() throws IOException {
        pki = new TestPki(EtsiCurve.BRAINPOOL_P256R1);
        other = new TestPki(EtsiCurve.BRAINPOOL_P256R1);
        dir = Files.createTempDirectory("vpki-dc-test");
        Files.write(dir.resolve("rca.cert"), pki.root.encoded());
        dc = new SpringApplicationBuilder(DcApplication.class).run("--server.port=0", "--server.address=127.0.0.1",
                "--vpki.audit.dir=" + dir.resolve("audit"),
                "--vpki.dc.data-dir=" + dir.resolve("data"), "--vpki.rca.certificate-file=" + dir.resolve("rca.cert"));
        url = URI.create("http://127.0.0.1:" + dc.getBean(Environment.class).getProperty("local.server.port") + "/");
    }

    @AfterAll
    static void stop() {
        if (dc != null) {
            dc.close();
        }
    }

    static int put(String kind, String rca, byte[] body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(DistributionPaths.join(url, "publish/" + rca + "/" + kind))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    static byte[] ctl(int seq, TestPki signer, Instant now) {
        return TrustLists.signCtl(new RcaCtl(true, seq, now.plus(Duration.ofDays(1)), List.of(
                new CtlEntry.Ea(pki.ea, "http://127.0.0.1:8083/ea/enrolment", "http://127.0.0.1:8083/ea/validation"),
                new CtlEntry.Aa(pki.aa, "http://127.0.0.1:8085/aa/authorization")), List.of()), now, signer.rootSigner(), signer.root);
    }

    @Test
    void trustListClient_fetchesAndVerifiesFromTheRealDc_andTheDcRefusesForeignLists() throws Exception {
        Instant now = Instant.now();
        String hex = pki.root.hashedId8().toHex();
        assertThat(HTTP.send(HttpRequest.newBuilder(DistributionPaths.ctl(url, pki.root.hashedId8())).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(404);

        assertThat(put("ctl", hex, ctl(1, pki, now))).isEqualTo(201);
        assertThat(
                put("crl", hex, TrustLists.signCrl(new Crl(now, now.plus(Duration.ofDays(1)), List.of()), now, pki.rootSigner(), pki.root)))
                .isEqualTo(201);
        assertThat(put("ctl", hex, ctl(9, other, now))).isEqualTo(403);
        assertThat(put("ctl", hex, ctl(0, pki, now))).isEqualTo(409);
        assertThat(put("nonsense", hex, ctl(2, pki, now))).isEqualTo(404);

        TrustListClient client = new TrustListClient(List.of(URI.create("http://127.0.0.1:1/"), url), pki.root,
                TrustListClient.Options.defaults());
        TrustListClient.Snapshot s = client.refresh(now);
        assertThat(s.source()).isEqualTo(url);
        assertThat(s.ctl().sequence()).isEqualTo(1);
        assertThat(client.current().validate(pki.aa, TestPki.NOW)).containsExactly(pki.aa, pki.root);

        // a revocation arrives: the client takes it at its next refresh; an unchanged list costs a 304
        assertThat(put("ctl", hex, ctl(2, pki, now))).isEqualTo(201);
        assertThat(put("crl", hex, TrustLists.signCrl(new Crl(now.plusSeconds(1), now.plus(Duration.ofDays(1)),
                List.of(pki.aa.hashedId8())), now.plusSeconds(1), pki.rootSigner(), pki.root))).isEqualTo(201);
        client.refresh(now.plusSeconds(5));
        assertThat(client.ctl().orElseThrow().sequence()).isEqualTo(2);
        assertThat(client.crl().orElseThrow().isRevoked(pki.aa.hashedId8())).isTrue();
        assertThat(client.refresh(now.plusSeconds(6)).trustStore()).isSameAs(client.current());

        // an OBU appends "/getctl/..." to the DC URL as the CTL lists it (ending in "/"): the doubled slash is served alike
        for (String list : List.of("getctl", "getcrl")) {
            HttpResponse<byte[]> single = get(url.toString() + list + "/" + hex);
            HttpResponse<byte[]> doubled = get(url.toString() + "/" + list + "/" + hex);
            assertThat(doubled.uri().getPath()).isEqualTo("//" + list + "/" + hex);
            assertThat(single.statusCode()).isEqualTo(200);
            assertThat(doubled.statusCode()).as(list).isEqualTo(200);
            assertThat(doubled.headers().firstValue("Content-Type")).isEqualTo(single.headers().firstValue("Content-Type"));
            assertThat(doubled.body()).isEqualTo(single.body());
        }
    }

    @Test
    void unknownPath_isATypedNotFoundProblem() throws Exception {
        for (String path : List.of("no/such/path", "getctl", "/getnothing/0011223344556677")) {
            HttpResponse<byte[]> r = get(url.toString() + path);
            String body = new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(r.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(body).contains("\"code\":503", "\"error\":\"NOT_FOUND\"").doesNotContain("INVALID_ARGUMENT");
        }
    }

    static HttpResponse<byte[]> get(String uri) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(uri)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
