package eu.vpki.aa.testing;

import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.EnrolmentMessages;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts102941.SubjectAttributes;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

/** An ITS station over real HTTP: registered by its operator, enrols at the EA, asks AAs for ATs. */
public final class ItsStation {
    public static final List<PsidSsp> CAM_DENM = List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc),
            PsidSsp.bitmap(Psids.DENM, (byte) 0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff));
    private static final SecureRandom RANDOM = new SecureRandom();

    public final String canonicalId;
    /** The curve of all the station's keys (canonical key, EC key, AT keys). */
    public final EtsiCurve curve;
    public final EtsiKeyPair canonicalKey;
    private final DataEncryption encryption = new DataEncryption(RANDOM);
    public EtsiKeyPair ecKey;
    public EtsiCertificate ec;
    public EtsiKeyPair lastAtKey;

    /** A station whose keys are on nistP256. */
    public ItsStation(String canonicalId) {
        this(canonicalId, EtsiCurve.NIST_P256);
    }

    public ItsStation(String canonicalId, EtsiCurve curve) {
        this.canonicalId = canonicalId;
        this.curve = curve;
        this.canonicalKey = EtsiKeyPair.generate(curve, RANDOM);
    }

    /** The Operator API registration of this station (CAM and DENM). */
    public String registrationJson() {
        return """
                {"stations":[{"canonicalId":"%s","curve":"%s","publicKey":"%s",
                 "permissions":[{"psid":36,"sspType":"bitmap","ssp":"01fffc"},{"psid":37,"sspType":"bitmap","ssp":"01ffffff"}],
                 "maxEcValidity":"P365D"}]}""".formatted(canonicalId, LocalPki.curveName(curve),
                HexFormat.of().formatHex(canonicalKey.publicKey().compressed()));
    }

    /** Initial enrolment at {@code ea}: the EC response code (0 = enrolled). */
    public int enrol(LocalPki.Ea ea, int replica) {
        EtsiKeyPair newKey = EtsiKeyPair.generate(curve, RANDOM);
        var request = new EnrolmentMessages.EcRequest(canonicalId.getBytes(StandardCharsets.US_ASCII), newKey.publicKey(), null,
                SubjectAttributes.permissions(List.of(PsidSsp.bitmap(Psids.SECURED_CERTIFICATE_REQUEST, CertificateProfiles.EC_SSP))));
        OutgoingRequest out = EnrolmentMessages.initialRequest(request, new SoftwareSigner(newKey, RANDOM),
                new SoftwareSigner(canonicalKey, RANDOM), ea.certificate.asEncryptionRecipient(), Instant.now(), encryption);
        var result = EnrolmentMessages.readResponse(post(ea.enrolment(replica), out.body()).body(), out, ea.certificate, encryption);
        if (result.responseCode() == EtsiCodes.Enrolment.OK) {
            ecKey = newKey;
            ec = result.enrolmentCredential().orElseThrow();
        }
        return result.responseCode();
    }

    /** A fresh AT request (new AT key, proof of possession, EC signature encrypted for the EA). */
    public OutgoingRequest atRequest(LocalPki.Ea ea, EtsiCertificate aa, Instant now) {
        lastAtKey = EtsiKeyPair.generate(curve, RANDOM);
        return AuthorizationMessages.request(new AuthorizationMessages.AtRequest(lastAtKey.publicKey(), null, SubjectAttributes.permissions(CAM_DENM)),
                new SoftwareSigner(lastAtKey, RANDOM), ec, new SoftwareSigner(ecKey, RANDOM), ea.certificate, aa.asEncryptionRecipient(),
                AuthorizationMessages.Protection.FULL, now, RANDOM, encryption);
    }

    /** Posts {@code request} to an AA access point and reads the answer. */
    public AuthorizationMessages.AtResult authorize(URI accessPoint, OutgoingRequest request, EtsiCertificate aa) {
        HttpResponse<byte[]> r = post(accessPoint, request.body());
        if (r.statusCode() != 200 || !r.headers().firstValue("Content-Type").orElse("").startsWith("application/x-its-response")) {
            throw new IllegalStateException("AA answered " + r.statusCode() + " " + r.headers().firstValue("Content-Type").orElse("")
                    + ": " + new String(r.body(), StandardCharsets.UTF_8));
        }
        return AuthorizationMessages.readResponse(r.body(), request, aa, encryption);
    }

    public static HttpResponse<byte[]> post(URI uri, byte[] body) {
        return LocalPki.send(HttpRequest.newBuilder(uri).header("Content-Type", "application/x-its-request")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
