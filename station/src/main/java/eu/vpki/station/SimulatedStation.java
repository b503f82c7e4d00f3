package eu.vpki.station;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * One simulated ITS station: its canonical identity (registered by its operator before it enrols)
 * and, once enrolled, its Enrolment Credential and key.
 */
public final class SimulatedStation {
    private final String canonicalId;
    private final EtsiKeyPair canonicalKey;
    private volatile EtsiKeyPair ecKey;
    private volatile EtsiCertificate enrolmentCredential;

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

    public EtsiCurve curve() {
        return canonicalKey.curve();
    }

    public boolean enrolled() {
        return enrolmentCredential != null;
    }

    public EtsiKeyPair ecKey() {
        return ecKey;
    }

    public EtsiCertificate enrolmentCredential() {
        return enrolmentCredential;
    }

    void enrolled(EtsiKeyPair key, EtsiCertificate ec) {
        this.ecKey = key;
        this.enrolmentCredential = ec;
    }
}
