package eu.vpki.ea.testing;

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
import eu.vpki.common.fleet.StationRecord;
import eu.vpki.common.fleet.StationStatus;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

/** An ITS station as the tests drive it: canonical key, current EC key and EC, request builders. */
public final class SimulatedStation {
    public static final List<PsidSsp> CAM_DENM = List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc),
            PsidSsp.bitmap(Psids.DENM, (byte) 0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff));
    public static final List<PsidSsp> EC_REQUEST = List.of(PsidSsp.bitmap(Psids.SECURED_CERTIFICATE_REQUEST, CertificateProfiles.EC_SSP));

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final DataEncryption ENCRYPTION = new DataEncryption(RANDOM);

    public final String canonicalId;
    public final EtsiCurve curve;
    public final EtsiKeyPair canonicalKey;
    private EtsiKeyPair pendingKey;
    private EtsiKeyPair ecKey;
    private EtsiCertificate ec;

    public SimulatedStation(String canonicalId, EtsiCurve curve) {
        this.canonicalId = canonicalId;
        this.curve = curve;
        this.canonicalKey = EtsiKeyPair.generate(curve, RANDOM);
    }

    /** The record an operator would register for it (CAM and DENM permitted, one year of EC). */
    public StationRecord record(String operatorId) {
        return new StationRecord(operatorId, canonicalId, canonicalKey.publicKey(), CAM_DENM, Duration.ofDays(365), null,
                StationStatus.ACTIVE, 0);
    }

    /** The canonical key as the Operator API takes it. */
    public String publicKeyHex() {
        return HexFormat.of().formatHex(canonicalKey.publicKey().compressed());
    }

    public OutgoingRequest initialRequest(EtsiCertificate ea, Instant now) {
        return initialRequest(ea, now, SubjectAttributes.permissions(EC_REQUEST));
    }

    public OutgoingRequest initialRequest(EtsiCertificate ea, Instant now, SubjectAttributes requested) {
        return initialRequestSignedBy(ea, now, requested, canonicalKey);
    }

    /** An initial request whose outer signature is made with {@code signingKey} (the canonical key, or a forgery). */
    public OutgoingRequest initialRequestSignedBy(EtsiCertificate ea, Instant now, SubjectAttributes requested, EtsiKeyPair signingKey) {
        pendingKey = EtsiKeyPair.generate(curve, RANDOM);
        var request = new EnrolmentMessages.EcRequest(canonicalId.getBytes(StandardCharsets.US_ASCII), pendingKey.publicKey(), null, requested);
        return EnrolmentMessages.initialRequest(request, new SoftwareSigner(pendingKey, RANDOM), new SoftwareSigner(signingKey, RANDOM),
                ea.asEncryptionRecipient(), now, ENCRYPTION);
    }

    /** A re-enrolment signed with the current EC. */
    public OutgoingRequest reEnrolmentRequest(EtsiCertificate ea, Instant now) {
        pendingKey = EtsiKeyPair.generate(curve, RANDOM);
        var request = new EnrolmentMessages.EcRequest(ec.hashedId8().bytes(), pendingKey.publicKey(), null,
                SubjectAttributes.permissions(EC_REQUEST));
        return EnrolmentMessages.reEnrolmentRequest(request, new SoftwareSigner(pendingKey, RANDOM), new SoftwareSigner(ecKey, RANDOM), ec,
                ea.asEncryptionRecipient(), now, ENCRYPTION);
    }

    /** Reads the EA's answer; on success the new EC becomes the current one. */
    public EnrolmentMessages.EcResult readResponse(byte[] body, OutgoingRequest request, EtsiCertificate ea) {
        EnrolmentMessages.EcResult result = EnrolmentMessages.readResponse(body, request, ea, ENCRYPTION);
        if (result.ok()) {
            ec = result.enrolmentCredential().orElseThrow();
            ecKey = pendingKey;
        }
        return result;
    }

    public EtsiCertificate ec() {
        return ec;
    }

    /** An AT request to {@code aa} naming {@code ea}, signed with the current EC. */
    public OutgoingRequest atRequest(EtsiCertificate ea, EtsiCertificate aa, List<PsidSsp> permissions, boolean encryptEcSignature, Instant now) {
        EtsiKeyPair atKey = EtsiKeyPair.generate(curve, RANDOM);
        return AuthorizationMessages.request(new AuthorizationMessages.AtRequest(atKey.publicKey(), null, SubjectAttributes.permissions(permissions)),
                new SoftwareSigner(atKey, RANDOM), ec, new SoftwareSigner(ecKey, RANDOM), ea, aa.asEncryptionRecipient(),
                new AuthorizationMessages.Protection(true, encryptEcSignature), now, RANDOM, ENCRYPTION);
    }
}
