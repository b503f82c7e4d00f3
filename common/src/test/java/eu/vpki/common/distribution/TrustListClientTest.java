package eu.vpki.common.distribution;

import com.sun.net.httpserver.HttpServer;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.Crl;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.TestPki;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link TrustListClient} against small real HTTP servers that serve what each test puts there. */
class TrustListClientTest {
    private static TestPki pki;
    private static TestPki otherRoot;
    private static final Instant NEXT = NOW.plus(Duration.ofDays(7));
    private static final TrustListClient.Options OPTIONS = new TrustListClient.Options(Duration.ofSeconds(2),
            Duration.ofSeconds(5), Duration.ofMinutes(15), Duration.ofHours(1));

    private final List<FakeDc> servers = new ArrayList<>();

    @BeforeAll
    static void pki() {
        pki = new TestPki(EtsiCurve.NIST_P256);
        otherRoot = new TestPki(EtsiCurve.NIST_P256);
    }

    @AfterEach
    void stop() {
        servers.forEach(s -> s.server.stop(0));
    }

    /** A DC stand-in: serves what {@link #put} gave it, honours If-None-Match, counts requests. */
    final class FakeDc {
        final HttpServer server;
        final Map<String, byte[]> bodies = new ConcurrentHashMap<>();
        final AtomicInteger requests = new AtomicInteger();
        final AtomicInteger notModified = new AtomicInteger();
        volatile int failWith;

        FakeDc() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                requests.incrementAndGet();
                byte[] body = bodies.get(exchange.getRequestURI().getPath());
                if (failWith != 0 || body == null) {
                    exchange.sendResponseHeaders(failWith != 0 ? failWith : 404, -1);
                } else if (DistributionPaths.etag(body).equals(exchange.getRequestHeaders().getFirst("If-None-Match"))) {
                    notModified.incrementAndGet();
                    exchange.sendResponseHeaders(304, -1);
                } else {
                    exchange.getResponseHeaders().add("ETag", DistributionPaths.etag(body));
                    exchange.sendResponseHeaders(200, body.length);
                    exchange.getResponseBody().write(body);
                }
                exchange.close();
            });
            server.start();
            servers.add(this);
        }

        URI url() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
        }

        FakeDc put(byte[] ctl, byte[] crl) {
            String hex = pki.root.hashedId8().toHex();
            bodies.put("/getctl/" + hex, ctl);
            bodies.put("/getcrl/" + hex, crl);
            return this;
        }
    }

    private static byte[] ctl(int sequence, TestPki signer, CtlEntry... entries) {
        return TrustLists.signCtl(new RcaCtl(true, sequence, NEXT, List.of(entries), List.of()), NOW, signer.rootSigner(), signer.root);
    }

    private static byte[] crl(Instant thisUpdate, TestPki signer, TestPki revokedFrom) {
        return TrustLists.signCrl(new Crl(thisUpdate, NEXT, revokedFrom == null ? List.of() : List.of(revokedFrom.aa.hashedId8())),
                thisUpdate, signer.rootSigner(), signer.root);
    }

    private static CtlEntry.Ea ea() {
        return new CtlEntry.Ea(pki.ea, "http://127.0.0.1:8083/ea/enrolment", "http://127.0.0.1:8083/ea/authorization-validation");
    }

    private static CtlEntry.Aa aa() {
        return new CtlEntry.Aa(pki.aa, "http://127.0.0.1:8085/aa/authorization");
    }

    private static URI closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return URI.create("http://127.0.0.1:" + s.getLocalPort() + "/");
        }
    }

    @Test
    void refresh_verifiesBothListsAndBuildsTheTrustStore() throws IOException {
        FakeDc dc = new FakeDc().put(ctl(3, pki, ea(), aa()), crl(NOW, pki, null));
        TrustListClient client = new TrustListClient(List.of(dc.url()), pki.root, OPTIONS);

        assertThatThrownBy(client::current).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_TRUSTED));
        TrustListClient.Snapshot s = client.refresh(NOW);

        assertThat(s.ctl().sequence()).isEqualTo(3);
        assertThat(s.source()).isEqualTo(dc.url());
        assertThat(client.ctl().orElseThrow().enrolmentAuthorities()).singleElement()
                .satisfies(e -> assertThat(e.itsAccessPoint()).isEqualTo("http://127.0.0.1:8083/ea/enrolment"));
        assertThat(client.current().validate(pki.aa, NOW)).containsExactly(pki.aa, pki.root);
        assertThat(client.crl().orElseThrow().revoked()).isEmpty();
    }

    @Test
    void failingOrUntrustedDc_isSkippedForTheNext() throws IOException {
        FakeDc broken = new FakeDc();
        broken.failWith = 500;
        FakeDc foreign = new FakeDc().put(ctl(9, otherRoot), crl(NOW, otherRoot, null));
        FakeDc good = new FakeDc().put(ctl(4, pki, ea()), crl(NOW, pki, null));
        TrustListClient client = new TrustListClient(List.of(closedPort(), broken.url(), foreign.url(), good.url()), pki.root, OPTIONS);

        TrustListClient.Snapshot s = client.refresh(NOW);

        assertThat(s.source()).isEqualTo(good.url());
        assertThat(s.ctl().sequence()).isEqualTo(4);
        assertThat(broken.requests.get()).isEqualTo(1);
        assertThat(foreign.requests.get()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void noDcWithValidLists_failsAndKeepsNothing() throws IOException {
        FakeDc foreign = new FakeDc().put(ctl(1, otherRoot), crl(NOW, otherRoot, null));
        TrustListClient client = new TrustListClient(List.of(foreign.url()), pki.root, OPTIONS);

        assertThatThrownBy(() -> client.refresh(NOW)).isInstanceOfSatisfying(PkiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE);
            assertThat(e.getMessage()).contains(foreign.url().toString());
        });
        assertThat(client.snapshot()).isEmpty();
    }

    @Test
    void lowerOrEqualSequence_neverReplacesTheHeldCtl() throws IOException {
        FakeDc dc = new FakeDc().put(ctl(5, pki, ea(), aa()), crl(NOW, pki, null));
        TrustListClient client = new TrustListClient(List.of(dc.url()), pki.root, OPTIONS);
        client.refresh(NOW);

        dc.put(ctl(4, pki, ea()), crl(NOW, pki, null));
        assertThatThrownBy(() -> client.refresh(NOW.plusSeconds(60))).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.getMessage()).contains("does not follow"));
        dc.put(ctl(5, pki, ea()), crl(NOW, pki, null)); // same sequence, other content
        assertThatThrownBy(() -> client.refresh(NOW.plusSeconds(60))).isInstanceOf(PkiException.class);
        assertThat(client.ctl().orElseThrow().sequence()).isEqualTo(5);
        assertThat(client.ctl().orElseThrow().authorizationAuthorities()).hasSize(1);

        dc.put(ctl(6, pki, ea()), crl(NOW.plusSeconds(60), pki, pki));
        client.refresh(NOW.plusSeconds(120));
        assertThat(client.ctl().orElseThrow().sequence()).isEqualTo(6);
        assertThat(client.crl().orElseThrow().isRevoked(pki.aa.hashedId8())).isTrue();
        assertThatThrownBy(() -> client.current().validate(pki.aa, NOW)).isInstanceOf(PkiException.class);
    }

    @Test
    void sequenceWrapsFrom255To0() throws IOException {
        FakeDc dc = new FakeDc().put(ctl(255, pki, ea()), crl(NOW, pki, null));
        TrustListClient client = new TrustListClient(List.of(dc.url()), pki.root, OPTIONS);
        client.refresh(NOW);
        dc.put(ctl(0, pki, ea(), aa()), crl(NOW, pki, null));
        client.refresh(NOW.plusSeconds(1));
        assertThat(client.ctl().orElseThrow().sequence()).isZero();
        assertThat(client.ctl().orElseThrow().authorizationAuthorities()).hasSize(1);
    }

    @Test
    void olderCrl_isRefused() throws IOException {
        byte[] ctl = ctl(1, pki, ea());
        FakeDc dc = new FakeDc().put(ctl, crl(NOW, pki, pki));
        TrustListClient client = new TrustListClient(List.of(dc.url()), pki.root, OPTIONS);
        client.refresh(NOW);
        dc.put(ctl, crl(NOW.minusSeconds(3600), pki, null));
        assertThatThrownBy(() -> client.refresh(NOW)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.getMessage()).contains("older than the held"));
        assertThat(client.crl().orElseThrow().isRevoked(pki.aa.hashedId8())).isTrue();
    }

    @Test
    void deltaCtlServedAsFull_isRefused() throws IOException {
        byte[] delta = TrustLists.signCtl(new RcaCtl(false, 2, NEXT, List.of(aa()), List.of()), NOW, pki.rootSigner(), pki.root);
        FakeDc dc = new FakeDc().put(delta, crl(NOW, pki, null));
        TrustListClient client = new TrustListClient(List.of(dc.url()), pki.root, OPTIONS);
        assertThatThrownBy(() -> client.refresh(NOW)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.getMessage()).contains("delta"));
    }

    @Test
    void unchangedLists_areRevalidatedWithConditionalRequests() throws IOException {
        FakeDc dc = new FakeDc().put(ctl(1, pki, ea()), crl(NOW, pki, null));
        TrustListClient client = new TrustListClient(List.of(dc.url()), pki.root, OPTIONS);
        TrustListClient.Snapshot first = client.refresh(NOW);
        TrustListClient.Snapshot second = client.refresh(NOW.plusSeconds(30));
        assertThat(dc.notModified.get()).isEqualTo(2);
        assertThat(second.trustStore()).isSameAs(first.trustStore());
        assertThat(second.fetchedAt()).isEqualTo(NOW.plusSeconds(30));
    }

    @Test
    void refreshIfDue_followsMaxAgeAndNextUpdate() throws IOException {
        FakeDc dc = new FakeDc().put(ctl(1, pki, ea()), crl(NOW, pki, null));
        TrustListClient client = new TrustListClient(List.of(dc.url()), pki.root, OPTIONS);

        assertThat(client.refreshIfDue(NOW)).isTrue();
        assertThat(client.refreshIfDue(NOW.plus(Duration.ofMinutes(5)))).isFalse();
        assertThat(client.due(NOW.plus(Duration.ofMinutes(15)))).isTrue();
        assertThat(client.refreshIfDue(NOW.plus(Duration.ofMinutes(15)))).isTrue();
        assertThat(dc.requests.get()).isEqualTo(4);

        TrustListClient lazy = new TrustListClient(List.of(dc.url()), pki.root,
                new TrustListClient.Options(Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofDays(30), Duration.ofHours(1)));
        lazy.refresh(NOW);
        assertThat(lazy.due(NEXT.minus(Duration.ofMinutes(61)))).isFalse();
        assertThat(lazy.due(NEXT.minus(Duration.ofMinutes(60)))).isTrue();
    }

    @Test
    void constructor_refusesANonRootCertificate() {
        assertThatThrownBy(() -> new TrustListClient(List.of(URI.create("http://127.0.0.1:1/")), pki.ea, OPTIONS))
                .isInstanceOf(PkiException.class);
        assertThatThrownBy(() -> new TrustListClient(List.of(), pki.root, OPTIONS)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }
}
