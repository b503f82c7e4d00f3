package eu.vpki.station;

import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.EnrolmentMessages;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.station.load.Outcome;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * TS 102 941 as an OBU speaks it: builds enrolment and authorization requests, posts them as
 * {@code application/x-its-request}, reads the encrypted responses, and verifies every certificate
 * it gets (chain to the RCA through the CTL, the requested key, the permissions). A wrong
 * certificate is a failure, not a success.
 */
public final class ObuProtocol {
    static final String REQUEST_TYPE = "application/x-its-request";
    static final String RESPONSE_TYPE = "application/x-its-response";

    private final HttpClient http;
    private final DataEncryption encryption;
    private final StationMessages messages;
    private final Clock clock;
    private final PkiEndpoints pki;
    private final List<PsidSsp> atPermissions;
    private final Duration timeout;

    /** A request built ahead of sending (possibly before the timed window) with what is needed to read its answer. */
    public record Prepared(SimulatedStation station, EtsiKeyPair newKey, OutgoingRequest request, URI target,
                           EtsiCertificate authority) {
    }

    public ObuProtocol(HttpClient http, DataEncryption encryption, SecureRandom random, Clock clock, PkiEndpoints pki,
                       List<PsidSsp> atPermissions, Duration timeout) {
        this.http = http;
        this.encryption = encryption;
        this.messages = new StationMessages(random, encryption);
        this.clock = clock;
        this.pki = pki;
        this.atPermissions = List.copyOf(atPermissions);
        this.timeout = timeout;
    }

    public PkiEndpoints endpoints() {
        return pki;
    }

    // ---- enrolment ----

    /** An initial enrolment request for {@code s} (signed with its canonical key, PoP with a fresh key). */
    public Prepared prepareEnrolment(SimulatedStation s) {
        return toEa(messages.enrolment(s, pki.ea().certificate(), clock.instant()));
    }

    /**
     * A re-enrolment request for enrolled {@code s}: itsId = its current EC's HashedId8, signed with
     * the current EC's key (signer digest), proof of possession with a fresh key.
     */
    public Prepared prepareReenrolment(SimulatedStation s) {
        return toEa(messages.reEnrolment(s, pki.ea().certificate(), clock.instant()));
    }

    private Prepared toEa(StationMessages.Request r) {
        return new Prepared(r.station(), r.newKey(), r.message(), pki.ea().enrolment(), pki.ea().certificate());
    }

    /** The same request sent to another access point (another replica of the same authority). */
    public static Prepared retarget(Prepared p, URI target) {
        return target.equals(p.target()) ? p : new Prepared(p.station(), p.newKey(), p.request(), target, p.authority());
    }

    /** Sends a prepared enrolment, verifies the EC and keeps it on the station. */
    public Outcome enrol(Prepared p) throws IOException, InterruptedException {
        return exchange(p, body -> {
            EnrolmentMessages.EcResult r = EnrolmentMessages.readResponse(body, p.request(), p.authority(), encryption);
            return new Answer(r.responseCode(), "enrolment:" + EtsiCodes.enrolmentName(r.responseCode()),
                    r.enrolmentCredential().orElse(null));
        }, ec -> {
            if (!ec.hasAppPermission(Psids.SECURED_CERTIFICATE_REQUEST)) {
                return Outcome.failure("verification:ec-without-623");
            }
            p.station().enrolled(p.newKey(), ec);
            return Outcome.OK;
        });
    }

    // ---- authorization ----

    /** An authorization request of an enrolled station to {@code aa} (PoP, EC signature encrypted for the EA). */
    public Prepared prepareAuthorization(SimulatedStation s, PkiEndpoints.Aa aa) {
        StationMessages.Request r = messages.authorization(s, pki.ea().certificate(), aa.certificate(), atPermissions,
                AuthorizationMessages.Protection.FULL, clock.instant());
        return new Prepared(s, r.newKey(), r.message(), aa.authorization(), aa.certificate());
    }

    /** Sends a prepared authorization request and verifies the AT. */
    public Outcome authorize(Prepared p) throws IOException, InterruptedException {
        return exchange(p, body -> {
            AuthorizationMessages.AtResult r = AuthorizationMessages.readResponse(body, p.request(), p.authority(), encryption);
            return new Answer(r.responseCode(), "authorization:" + EtsiCodes.authorizationName(r.responseCode()),
                    r.authorizationTicket().orElse(null));
        }, at -> {
            if (!atPermissions.containsAll(at.appPermissions())) {
                return Outcome.failure("verification:at-permissions-not-requested");
            }
            if (!at.namesIssuer(p.authority())) {
                return Outcome.failure("verification:at-not-from-this-aa");
            }
            return Outcome.OK;
        });
    }

    // ---- shared ----

    /** A decoded response: the ETSI response code, its label for the report, the certificate when ok. */
    private record Answer(int code, String label, EtsiCertificate certificate) {
    }

    private interface ResponseReader {
        Answer read(byte[] body);
    }

    /**
     * POSTs a prepared request and judges the answer: HTTP status and content type, decryption and
     * signature of the response, the response code, then the certificate (requested key and chain to
     * the RCA, then {@code accept} for what is particular to ECs or ATs).
     */
    private Outcome exchange(Prepared p, ResponseReader reader, java.util.function.Function<EtsiCertificate, Outcome> accept)
            throws IOException, InterruptedException {
        HttpResponse<byte[]> response;
        try {
            response = post(p.target(), p.request().body());
        } catch (HttpTimeoutException e) {
            return Outcome.failure("client:timeout");
        }
        Outcome http = checkHttp(response);
        if (http != null) {
            return http;
        }
        Answer answer;
        try {
            answer = reader.read(response.body());
        } catch (PkiException e) {
            return Outcome.failure("response:" + e.code().name().toLowerCase());
        }
        if (answer.code() != 0) {
            return Outcome.failure(answer.label());
        }
        Outcome verified = verify(answer.certificate(), p.newKey());
        return verified.success() ? accept.apply(answer.certificate()) : verified;
    }

    private Outcome verify(EtsiCertificate cert, EtsiKeyPair requestedKey) {
        if (!cert.verificationKey().equals(requestedKey.publicKey())) {
            return Outcome.failure("verification:wrong-key");
        }
        try {
            pki.trust().validate(cert, clock.instant());
            return Outcome.OK;
        } catch (PkiException e) {
            return Outcome.failure("verification:" + e.code().name().toLowerCase());
        }
    }

    private HttpResponse<byte[]> post(URI target, byte[] body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(target).timeout(timeout)
                .header("Content-Type", REQUEST_TYPE)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    private static Outcome checkHttp(HttpResponse<byte[]> r) {
        if (r.statusCode() != 200) {
            return Outcome.failure("http:" + r.statusCode());
        }
        String type = r.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith(RESPONSE_TYPE)) {
            return Outcome.failure("http:content-type " + type);
        }
        return null;
    }
}
