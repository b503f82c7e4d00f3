package eu.vpki.benchmarks;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EncryptionRecipient;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.Validity;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;

/**
 * A root CA, an EA and an AA whose signing and encryption keys are on one curve, wired as the
 * common module's tests wire them. Immutable after construction; shared by benchmark threads
 * (signers are built per thread from the key pairs).
 */
final class Pki {
    /** The fixed "now" of every benchmark: the caller always passes the time. */
    static final Instant NOW = Instant.parse("2026-11-20T12:00:00Z");
    static final List<PsidSsp> CAM_DENM = List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc),
            PsidSsp.bitmap(Psids.DENM, (byte) 0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff));
    static final Validity EC_VALIDITY = Validity.of(NOW.minusSeconds(60), Validity.Unit.YEARS, 1);
    static final Validity AT_VALIDITY = Validity.of(NOW, Validity.Unit.HOURS, 168);

    final EtsiCurve curve;
    final EtsiKeyPair rootKey;
    final EtsiCertificate root;
    final EtsiKeyPair eaKey;
    final EtsiKeyPair eaEncKey;
    final EtsiCertificate ea;
    final EtsiKeyPair aaKey;
    final EtsiKeyPair aaEncKey;
    final EtsiCertificate aa;
    final DecryptionIdentity eaIdentity;
    final DecryptionIdentity aaIdentity;
    final EncryptionRecipient eaRecipient;
    final EncryptionRecipient aaRecipient;

    Pki(EtsiCurve curve, SecureRandom random) {
        this.curve = curve;
        rootKey = EtsiKeyPair.generate(curve, random);
        root = CertificateIssuer.selfSign(CertificateProfiles.rootCa("Bench RCA", Validity.of(NOW.minusSeconds(3600), Validity.Unit.YEARS, 5),
                rootKey.publicKey(), null, CertificateProfiles.defaultAuthorizationTicketRanges(), null), new SoftwareSigner(rootKey, random));
        eaKey = EtsiKeyPair.generate(curve, random);
        eaEncKey = EtsiKeyPair.generate(curve, random);
        ea = CertificateIssuer.issue(CertificateProfiles.enrolmentAuthority("Bench EA", Validity.of(NOW.minusSeconds(1800), Validity.Unit.YEARS, 2),
                eaKey.publicKey(), eaEncKey.publicKey(), null), root, new SoftwareSigner(rootKey, random));
        aaKey = EtsiKeyPair.generate(curve, random);
        aaEncKey = EtsiKeyPair.generate(curve, random);
        aa = CertificateIssuer.issue(CertificateProfiles.authorizationAuthority("Bench AA", Validity.of(NOW.minusSeconds(1800), Validity.Unit.YEARS, 2),
                aaKey.publicKey(), aaEncKey.publicKey(), CertificateProfiles.defaultAuthorizationTicketRanges(), null), root,
                new SoftwareSigner(rootKey, random));
        eaIdentity = new DecryptionIdentity(eaEncKey, ea.hashedId8(), ea.sha256());
        aaIdentity = new DecryptionIdentity(aaEncKey, aa.hashedId8(), aa.sha256());
        eaRecipient = ea.asEncryptionRecipient();
        aaRecipient = aa.asEncryptionRecipient();
    }

    EtsiCertificate issueEc(EtsiKeyPair stationKey, SecureRandom random) {
        return CertificateIssuer.issue(CertificateProfiles.enrolmentCredential(EC_VALIDITY, stationKey.publicKey(), null, null),
                ea, new SoftwareSigner(eaKey, random));
    }

    EtsiCertificate issueAt(EtsiKeyPair atKey, SecureRandom random) {
        return CertificateIssuer.issue(CertificateProfiles.authorizationTicket(AT_VALIDITY, atKey.publicKey(), null, CAM_DENM, null),
                aa, new SoftwareSigner(aaKey, random));
    }

    /** Bytes that look like a request payload: fixed content, the size is what matters. */
    static byte[] payload(int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }
}
