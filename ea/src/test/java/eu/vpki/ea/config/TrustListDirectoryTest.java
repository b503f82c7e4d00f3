package eu.vpki.ea.config;

import com.sun.net.httpserver.HttpServer;
import eu.vpki.common.distribution.TrustListClient;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts102941.Crl;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.ts103097.Validity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/** The EA's view of the AAs through TrustListClient, against a minimal DC serving a signed CTL and CRL. */
class TrustListDirectoryTest {
    private final TestPki pki = new TestPki(EtsiCurve.NIST_P256);
    private HttpServer dc;

    @AfterEach
    void stop() {
        dc.stop(0);
    }

    @Test
    void aaOfTheCtl_isFound_revokedOrUnlistedAasAreNot() throws IOException {
        EtsiKeyPair otherKey = EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM);
        EtsiCertificate revokedAa = CertificateIssuer.issue(CertificateProfiles.authorizationAuthority("Revoked AA",
                Validity.of(NOW.minusSeconds(600), Validity.Unit.YEARS, 1), otherKey.publicKey(), otherKey.publicKey(),
                CertificateProfiles.defaultAuthorizationTicketRanges(), null), pki.root, pki.rootSigner());
        byte[] ctl = TrustLists.signCtl(new RcaCtl(true, 3, NOW.plus(Duration.ofDays(7)), List.of(
                new CtlEntry.Ea(pki.ea, "http://ea.example/enrolment", "http://ea.example/validation"),
                new CtlEntry.Aa(pki.aa, "http://aa.example/"), new CtlEntry.Aa(revokedAa, "http://aa2.example/")), List.of()),
                NOW, pki.rootSigner(), pki.root);
        byte[] crl = TrustLists.signCrl(new Crl(NOW.minusSeconds(60), NOW.plus(Duration.ofDays(7)), List.of(revokedAa.hashedId8())),
                NOW, pki.rootSigner(), pki.root);
        dc = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        dc.createContext("/getctl/" + pki.root.hashedId8().toHex(), exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/x-its-ctl");
            exchange.sendResponseHeaders(200, ctl.length);
            exchange.getResponseBody().write(ctl);
            exchange.close();
        });
        dc.createContext("/getcrl/" + pki.root.hashedId8().toHex(), exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/x-its-crl");
            exchange.sendResponseHeaders(200, crl.length);
            exchange.getResponseBody().write(crl);
            exchange.close();
        });
        dc.start();
        TrustListClient client = new TrustListClient(List.of(URI.create("http://127.0.0.1:" + dc.getAddress().getPort() + "/")),
                pki.root, TrustListClient.Options.defaults());

        try (TrustListDirectory directory = new TrustListDirectory(client, Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofMinutes(1))) {
            assertThat(directory.find(pki.aa.hashedId8())).contains(pki.aa);
            assertThat(directory.find(revokedAa.hashedId8())).isEmpty();
            assertThat(directory.find(pki.ea.hashedId8())).as("an EA is not an AA").isEmpty();
            assertThat(directory.find(new TestPki(EtsiCurve.NIST_P256).aa.hashedId8())).isEmpty();
        }
    }

    @Test
    void dcWithoutLists_trustsNoAaButStarts() throws IOException {
        dc = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        dc.start(); // answers 404 to everything
        TrustListClient client = new TrustListClient(List.of(URI.create("http://127.0.0.1:" + dc.getAddress().getPort() + "/")),
                pki.root, TrustListClient.Options.defaults());
        try (TrustListDirectory directory = new TrustListDirectory(client, Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofMinutes(1))) {
            assertThat(directory.find(pki.aa.hashedId8())).isEmpty();
        }
    }
}
