package eu.vpki.station;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * One simulated ITS station: its canonical identity (registered by its operator before it enrols)
 * and, once enrolled, its Enrolment Credential and key. The one station of the project: the load
 * generator, the fault harness, the experiments and the EA and AA tests all drive this class, with
 * {@link StationMessages} building its requests and {@link ObuProtocol} sending them over HTTP.
 */
public final class SimulatedStation {
    /** The permissions a simulated station asks ATs for and is registered with: CAM and DENM of the ETSI profile. */
    public static final List<PsidSsp> CAM_DENM = List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc),
            PsidSsp.bitmap(Psids.DENM, (byte) 0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff));
    /** The permission every enrolment request asks the EC for: secured certificate requests (PSID 623). */
    public static final List<PsidSsp> EC_PERMISSIONS = List
            .of(PsidSsp.bitmap(Psids.SECURED_CERTIFICATE_REQUEST, CertificateProfiles.EC_SSP));

    private final String canonicalId;
    private final EtsiKeyPair canonicalKey;
    private volatile Enrolment enrolment;

    /** The current EC and its key, replaced together. */
    private record Enrolment(EtsiKeyPair key, EtsiCertificate ec) {
    }

    public SimulatedStation(String canonicalId, EtsiKeyPair canonicalKey) {
        this.canonicalId = canonicalId;
        this.canonicalKey = canonicalKey;
    }

    public static SimulatedStation generate(String canonicalId, EtsiCurve curve, SecureRandom random) {
        return new SimulatedStation(canonicalId, EtsiKeyPair.generate(curve, random));
    }

    public String canonicalId() {
        return canonicalId;
    }

    public byte[] canonicalIdBytes() {
        return canonicalId.getBytes(StandardCharsets.US_ASCII);
    }

    public EtsiKeyPair canonicalKey() {
        return canonicalKey;
    }

    /** The canonical public key, compressed, in hex: as the Operator API takes it. */
    public String canonicalKeyHex() {
        return HexFormat.of().formatHex(canonicalKey.publicKey().compressed());
    }

    /** The curve of all the station's keys (canonical key, EC key, AT keys). */
    public EtsiCurve curve() {
        return canonicalKey.curve();
    }

    public boolean enrolled() {
        return enrolment != null;
    }

    /** The key of the current EC; null before the first enrolment. */
    public EtsiKeyPair ecKey() {
        Enrolment e = enrolment;
        return e == null ? null : e.key();
    }

    /** The current EC; null before the first enrolment. */
    public EtsiCertificate enrolmentCredential() {
        Enrolment e = enrolment;
        return e == null ? null : e.ec();
    }

    /** Makes {@code ec} (certifying {@code key}) the station's current EC, replacing any earlier one. */
    public void enrolled(EtsiKeyPair key, EtsiCertificate ec) {
        this.enrolment = new Enrolment(key, ec);
    }
}
