package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;

/** A small PKI (root, EA, AA) for tests, on one curve for signing keys. */
public final class TestPki {
    public static final Instant NOW = Instant.parse("2026-11-20T12:00:00Z");
    public static final SecureRandom RANDOM = new SecureRandom();

    public final EtsiCurve curve;
    public final EtsiKeyPair rootKey;
    public final EtsiCertificate root;
    public final EtsiKeyPair eaKey;
    public final EtsiKeyPair eaEncKey;
    public final EtsiCertificate ea;
    public final EtsiKeyPair aaKey;
    public final EtsiKeyPair aaEncKey;
    public final EtsiCertificate aa;

    public TestPki(EtsiCurve curve) {
        this.curve = curve;
        EtsiCurve encCurve = curve.encryptionCapable() ? curve : EtsiCurve.NIST_P256;
        rootKey = EtsiKeyPair.generate(curve, RANDOM);
        root = CertificateIssuer.selfSign(CertificateProfiles.rootCa("Test RCA", Validity.of(NOW.minusSeconds(3600), Validity.Unit.YEARS, 5),
                rootKey.publicKey(), null, CertificateProfiles.defaultAuthorizationTicketRanges(), null), new SoftwareSigner(rootKey, RANDOM));
        eaKey = EtsiKeyPair.generate(curve, RANDOM);
        eaEncKey = EtsiKeyPair.generate(encCurve, RANDOM);
        ea = CertificateIssuer.issue(CertificateProfiles.enrolmentAuthority("Test EA", Validity.of(NOW.minusSeconds(1800), Validity.Unit.YEARS, 2),
                eaKey.publicKey(), eaEncKey.publicKey(), null), root, rootSigner());
        aaKey = EtsiKeyPair.generate(curve, RANDOM);
        aaEncKey = EtsiKeyPair.generate(encCurve, RANDOM);
        aa = CertificateIssuer.issue(CertificateProfiles.authorizationAuthority("Test AA", Validity.of(NOW.minusSeconds(1800), Validity.Unit.YEARS, 2),
                aaKey.publicKey(), aaEncKey.publicKey(), CertificateProfiles.defaultAuthorizationTicketRanges(), null), root, rootSigner());
    }

    public SoftwareSigner rootSigner() {
        return new SoftwareSigner(rootKey, RANDOM);
    }

    public SoftwareSigner eaSigner() {
        return new SoftwareSigner(eaKey, RANDOM);
    }

    public SoftwareSigner aaSigner() {
        return new SoftwareSigner(aaKey, RANDOM);
    }

    public EtsiCertificate issueEc(EtsiKeyPair stationKey) {
        return CertificateIssuer.issue(CertificateProfiles.enrolmentCredential(Validity.of(NOW.minusSeconds(60), Validity.Unit.YEARS, 1),
                stationKey.publicKey(), null, null), ea, eaSigner());
    }

    public EtsiCertificate issueAt(EtsiKeyPair atKey) {
        return CertificateIssuer.issue(CertificateProfiles.authorizationTicket(Validity.of(NOW.minusSeconds(60), Validity.Unit.HOURS, 168),
                atKey.publicKey(), null, List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc),
                        PsidSsp.bitmap(Psids.DENM, (byte) 0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff)), null), aa, aaSigner());
    }
}
