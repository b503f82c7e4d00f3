package eu.vpki.station;

import com.sun.net.httpserver.HttpServer;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts102941.EnrolmentMessages;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.ts103097.Validity;
import eu.vpki.common.etsi.validation.TrustStore;
import eu.vpki.station.load.Outcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OBU side against an in-test HTTP fake of the EA and AA built from common's server-side message
 * classes (the real services are exercised by the cluster integration test): correct answers count
 * as success, wrong certificates, refusals and bad HTTP as failures with their codes.
 */
class ObuProtocolTest {
    private static final DataEncryption ENCRYPTION = new DataEncryption(RANDOM);
    private static final List<PsidSsp> CAM = List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc));

    private final TestPki pki = new TestPki(EtsiCurve.NIST_P256);
    private final AtomicReference<Function<byte[], byte[]>> eaBehaviour = new AtomicReference<>(this::correctEa);
    private final AtomicReference<Function<byte[], byte[]>> aaBehaviour = new AtomicReference<>(this::correctAa);
    private HttpServer server;

    private ObuProtocol protocol() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/ea/enrolment", x -> respond(x, eaBehaviour.get()));
        server.createContext("/aa/authorization", x -> respond(x, aaBehaviour.get()));
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        RcaCtl ctl = new RcaCtl(true, 1, NOW.plusSeconds(3600), List.of(
                new CtlEntry.Ea(pki.ea, base + "/ea/enrolment", base + "/ea/validation"),
                new CtlEntry.Aa(pki.aa, base + "/aa/authorization")), List.of());
        PkiEndpoints endpoints = PkiEndpoints.fromCtl(pki.root, ctl, TrustStore.fromCtl(pki.root, ctl, null), null);
        return new ObuProtocol(HttpClient.newHttpClient(), ENCRYPTION, RANDOM, Clock.fixed(NOW, ZoneOffset.UTC), endpoints, CAM,
                Duration.ofSeconds(10));
    }

    private static void respond(com.sun.net.httpserver.HttpExchange x, Function<byte[], byte[]> behaviour) throws java.io.IOException {
        byte[] body = behaviour.apply(x.getRequestBody().readAllBytes());
        x.getResponseHeaders().add("Content-Type", body == null ? "text/plain" : ObuProtocol.RESPONSE_TYPE);
        byte[] out = body == null ? "nope".getBytes() : body;
        x.sendResponseHeaders(body == null ? 503 : 200, out.length);
        x.getResponseBody().write(out);
        x.close();
    }

    private byte[] correctEa(byte[] body) {
        DecryptedRequest d = DecryptedRequest.decrypt(body, new DecryptionIdentity(pki.eaEncKey, pki.ea.hashedId8(), pki.ea.sha256()),
                ENCRYPTION);
        var r = EnrolmentMessages.parseRequest(d);
        EtsiCertificate ec = CertificateIssuer
                .issue(CertificateProfiles.enrolmentCredential(Validity.of(NOW.minusSeconds(5), Validity.Unit.YEARS, 1),
                        r.request().verificationKey(), null, null), pki.ea, pki.eaSigner());
        return EnrolmentMessages.response(d, 0, ec, pki.eaSigner(), pki.ea, NOW, ENCRYPTION);
    }

    private byte[] correctAa(byte[] body) {
        DecryptedRequest d = DecryptedRequest.decrypt(body, new DecryptionIdentity(pki.aaEncKey, pki.aa.hashedId8(), pki.aa.sha256()),
                ENCRYPTION);
        var r = AuthorizationMessages.parseRequest(d);
        EtsiCertificate at = CertificateIssuer
                .issue(CertificateProfiles.authorizationTicket(Validity.of(NOW.minusSeconds(5), Validity.Unit.HOURS, 1),
                        r.request().verificationKey(), null, r.request().requested().appPermissions(), null), pki.aa, pki.aaSigner());
        return AuthorizationMessages.response(d, 0, at, pki.aaSigner(), pki.aa, NOW, ENCRYPTION);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void enrolThenFetch_succeedsAndKeepsTheVerifiedEc() throws Exception {
        ObuProtocol obu = protocol();
        SimulatedStation s = SimulatedStation.generate("VIN-1", EtsiCurve.BRAINPOOL_P256R1, RANDOM);
        assertThat(obu.enrol(obu.prepareEnrolment(s))).isEqualTo(Outcome.OK);
        assertThat(s.enrolled()).isTrue();
        assertThat(s.enrolmentCredential().verificationKey()).isEqualTo(s.ecKey().publicKey());
        for (int i = 0; i < 3; i++) {
            assertThat(obu.authorize(obu.prepareAuthorization(s, obu.endpoints().aas().get(0)))).isEqualTo(Outcome.OK);
        }
    }

    @Test
    void ecForAnotherKey_isAVerificationFailure() throws Exception {
        ObuProtocol obu = protocol();
        eaBehaviour.set(body -> {
            DecryptedRequest d = DecryptedRequest.decrypt(body, new DecryptionIdentity(pki.eaEncKey, pki.ea.hashedId8(), pki.ea.sha256()),
                    ENCRYPTION);
            EtsiCertificate wrong = pki.issueEc(EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM));
            return EnrolmentMessages.response(d, 0, wrong, pki.eaSigner(), pki.ea, NOW, ENCRYPTION);
        });
        SimulatedStation s = SimulatedStation.generate("VIN-2", EtsiCurve.NIST_P256, RANDOM);
        assertThat(obu.enrol(obu.prepareEnrolment(s))).isEqualTo(Outcome.failure("verification:wrong-key"));
        assertThat(s.enrolled()).isFalse();
    }

    @Test
    void atFromAnUntrustedAa_isAVerificationFailure() throws Exception {
        ObuProtocol obu = protocol();
        SimulatedStation s = SimulatedStation.generate("VIN-3", EtsiCurve.NIST_P256, RANDOM);
        assertThat(obu.enrol(obu.prepareEnrolment(s))).isEqualTo(Outcome.OK);
        TestPki rogue = new TestPki(EtsiCurve.NIST_P256);
        aaBehaviour.set(body -> {
            DecryptedRequest d = DecryptedRequest.decrypt(body, new DecryptionIdentity(pki.aaEncKey, pki.aa.hashedId8(), pki.aa.sha256()),
                    ENCRYPTION);
            var r = AuthorizationMessages.parseRequest(d);
            EtsiCertificate at = CertificateIssuer
                    .issue(CertificateProfiles.authorizationTicket(Validity.of(NOW.minusSeconds(5), Validity.Unit.HOURS, 1),
                            r.request().verificationKey(), null, CAM, null), rogue.aa, rogue.aaSigner());
            return AuthorizationMessages.response(d, 0, at, pki.aaSigner(), pki.aa, NOW, ENCRYPTION);
        });
        Outcome o = obu.authorize(obu.prepareAuthorization(s, obu.endpoints().aas().get(0)));
        assertThat(o.success()).isFalse();
        assertThat(o.code()).startsWith("verification:");
    }

    @Test
    void refusal_isCountedByItsEtsiName() throws Exception {
        ObuProtocol obu = protocol();
        eaBehaviour.set(body -> {
            DecryptedRequest d = DecryptedRequest.decrypt(body, new DecryptionIdentity(pki.eaEncKey, pki.ea.hashedId8(), pki.ea.sha256()),
                    ENCRYPTION);
            return EnrolmentMessages.response(d, EtsiCodes.Enrolment.UNKNOWNITS, null, pki.eaSigner(), pki.ea, NOW, ENCRYPTION);
        });
        SimulatedStation s = SimulatedStation.generate("VIN-4", EtsiCurve.NIST_P256, RANDOM);
        assertThat(obu.enrol(obu.prepareEnrolment(s))).isEqualTo(Outcome.failure("enrolment:unknownits"));
    }

    @Test
    void serverError_isAnHttpFailure() throws Exception {
        ObuProtocol obu = protocol();
        eaBehaviour.set(body -> null);
        SimulatedStation s = SimulatedStation.generate("VIN-5", EtsiCurve.NIST_P256, RANDOM);
        assertThat(obu.enrol(obu.prepareEnrolment(s))).isEqualTo(Outcome.failure("http:503"));
    }
}
