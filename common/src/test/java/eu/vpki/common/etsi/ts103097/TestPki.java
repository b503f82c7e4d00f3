package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;

/**
 * A small PKI (root, EA, AA) for tests, on one curve for signing keys. {@code new TestPki(curve)}
 * makes fresh keys; {@link #fixed()} is always the same nistP256 PKI (keys derived from labels,
 * certificates stored under {@code fixed-pki/}), for messages kept in the repository, such as the
 * fuzz corpora, that must stay decryptable and verifiable across runs.
 */
public final class TestPki {
    public static final Instant NOW = Instant.parse("2026-11-20T12:00:00Z");
    public static final SecureRandom RANDOM = new SecureRandom();
    /** The AT permissions of the ETSI profile the tests and benchmarks ask for: CAM and DENM. */
    public static final List<PsidSsp> CAM_DENM = List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc),
            PsidSsp.bitmap(Psids.DENM, (byte) 0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff));
    /** The validity of the ECs {@link #issueEc} issues. */
    public static final Validity EC_VALIDITY = Validity.of(NOW.minusSeconds(60), Validity.Unit.YEARS, 1);
    /** The validity of the ATs {@link #issueAt} issues. */
    public static final Validity AT_VALIDITY = Validity.of(NOW.minusSeconds(60), Validity.Unit.HOURS, 168);

    public final EtsiCurve curve;
    public final EtsiKeyPair rootKey;
    public final EtsiCertificate root;
    public final EtsiKeyPair eaKey;
    public final EtsiKeyPair eaEncKey;
    public final EtsiCertificate ea;
    public final EtsiKeyPair aaKey;
    public final EtsiKeyPair aaEncKey;
    public final EtsiCertificate aa;

    private static final String FIXED_DIRECTORY = "fixed-pki/";
    private static final String[] FIXED_NAMES = {"root", "ea", "aa"};
    private static TestPki fixed;

    public TestPki(EtsiCurve curve) {
        this.curve = curve;
        EtsiCurve encCurve = curve.encryptionCapable() ? curve : EtsiCurve.NIST_P256;
        rootKey = EtsiKeyPair.generate(curve, RANDOM);
        root = CertificateIssuer.selfSign(
                CertificateProfiles.rootCa("Test RCA", Validity.of(NOW.minusSeconds(3600), Validity.Unit.YEARS, 5),
                        rootKey.publicKey(), null, CertificateProfiles.defaultAuthorizationTicketRanges(), null),
                new SoftwareSigner(rootKey, RANDOM));
        eaKey = EtsiKeyPair.generate(curve, RANDOM);
        eaEncKey = EtsiKeyPair.generate(encCurve, RANDOM);
        ea = CertificateIssuer
                .issue(CertificateProfiles.enrolmentAuthority("Test EA", Validity.of(NOW.minusSeconds(1800), Validity.Unit.YEARS, 2),
                        eaKey.publicKey(), eaEncKey.publicKey(), null), root, rootSigner());
        aaKey = EtsiKeyPair.generate(curve, RANDOM);
        aaEncKey = EtsiKeyPair.generate(encCurve, RANDOM);
        aa = CertificateIssuer.issue(
                CertificateProfiles.authorizationAuthority("Test AA", Validity.of(NOW.minusSeconds(1800), Validity.Unit.YEARS, 2),
                        aaKey.publicKey(), aaEncKey.publicKey(), CertificateProfiles.defaultAuthorizationTicketRanges(), null),
                root, rootSigner());
    }

    private TestPki(EtsiKeyPair rootKey, EtsiCertificate root, EtsiKeyPair eaKey, EtsiKeyPair eaEncKey, EtsiCertificate ea,
                    EtsiKeyPair aaKey, EtsiKeyPair aaEncKey, EtsiCertificate aa) {
        this.curve = rootKey.curve();
        this.rootKey = rootKey;
        this.root = root;
        this.eaKey = eaKey;
        this.eaEncKey = eaEncKey;
        this.ea = ea;
        this.aaKey = aaKey;
        this.aaEncKey = aaEncKey;
        this.aa = aa;
    }

    /**
     * The fixed nistP256 PKI: keys from {@link #fixedKey(String)} with the labels {@code root},
     * {@code ea}, {@code ea-encryption}, {@code aa}, {@code aa-encryption}; certificates from the
     * test resources {@code fixed-pki/<name>.oer} (written once by {@link #main}).
     */
    public static synchronized TestPki fixed() {
        if (fixed == null) {
            EtsiCertificate[] certificates = new EtsiCertificate[FIXED_NAMES.length];
            for (int i = 0; i < FIXED_NAMES.length; i++) {
                try (InputStream in = TestPki.class.getResourceAsStream(FIXED_DIRECTORY + FIXED_NAMES[i] + ".oer")) {
                    if (in == null) {
                        throw new IllegalStateException("missing test resource " + FIXED_DIRECTORY + FIXED_NAMES[i] + ".oer");
                    }
                    certificates[i] = EtsiCertificate.decode(in.readAllBytes());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            fixed = new TestPki(fixedKey("root"), certificates[0], fixedKey("ea"), fixedKey("ea-encryption"), certificates[1],
                    fixedKey("aa"), fixedKey("aa-encryption"), certificates[2]);
        }
        return fixed;
    }

    /** A nistP256 key pair that is the same in every run: private scalar SHA-256("vpki fixed test key " + label). */
    public static EtsiKeyPair fixedKey(String label) {
        try {
            byte[] scalar = MessageDigest.getInstance("SHA-256").digest(("vpki fixed test key " + label).getBytes(StandardCharsets.UTF_8));
            return EtsiKeyPair.fromPrivateScalar(EtsiCurve.NIST_P256, scalar);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The enrolment credential the fixed EA issued to the key {@code fixedKey("station-ec")}
     * (test resource {@code fixed-pki/ec.oer}).
     */
    public static EtsiCertificate fixedEc() {
        try (InputStream in = TestPki.class.getResourceAsStream(FIXED_DIRECTORY + "ec.oer")) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + FIXED_DIRECTORY + "ec.oer");
            }
            return EtsiCertificate.decode(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Issues the certificates of {@link #fixed()} and {@link #fixedEc()} anew with the fixed keys and
     * writes them into the directory given as argument
     * ({@code common/src/test/resources/eu/vpki/common/etsi/ts103097/fixed-pki}). Run once; issuing
     * them again invalidates every stored message made with the old ones (the fuzz corpora's seeds).
     */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        Files.createDirectories(dir);
        TestPki pki = new TestPki(fixedKey("root"), null, fixedKey("ea"), fixedKey("ea-encryption"), null,
                fixedKey("aa"), fixedKey("aa-encryption"), null);
        SoftwareSigner rootSigner = pki.rootSigner();
        EtsiCertificate root = CertificateIssuer.selfSign(CertificateProfiles.rootCa("Fixed Test RCA",
                Validity.of(NOW.minusSeconds(3600), Validity.Unit.YEARS, 20), pki.rootKey.publicKey(), null,
                CertificateProfiles.defaultAuthorizationTicketRanges(), null), rootSigner);
        EtsiCertificate ea = CertificateIssuer.issue(CertificateProfiles.enrolmentAuthority("Fixed Test EA",
                Validity.of(NOW.minusSeconds(1800), Validity.Unit.YEARS, 10), pki.eaKey.publicKey(), pki.eaEncKey.publicKey(), null),
                root, rootSigner);
        EtsiCertificate aa = CertificateIssuer.issue(CertificateProfiles.authorizationAuthority("Fixed Test AA",
                Validity.of(NOW.minusSeconds(1800), Validity.Unit.YEARS, 10), pki.aaKey.publicKey(), pki.aaEncKey.publicKey(),
                CertificateProfiles.defaultAuthorizationTicketRanges(), null), root, rootSigner);
        Files.write(dir.resolve("root.oer"), root.encoded());
        Files.write(dir.resolve("ea.oer"), ea.encoded());
        EtsiCertificate ec = CertificateIssuer.issue(CertificateProfiles.enrolmentCredential(
                Validity.of(NOW.minusSeconds(60), Validity.Unit.YEARS, 5), fixedKey("station-ec").publicKey(), null, null),
                ea, new SoftwareSigner(pki.eaKey, RANDOM));
        Files.write(dir.resolve("root.oer"), root.encoded());
        Files.write(dir.resolve("ea.oer"), ea.encoded());
        Files.write(dir.resolve("aa.oer"), aa.encoded());
        Files.write(dir.resolve("ec.oer"), ec.encoded());
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
        return CertificateIssuer.issue(CertificateProfiles.enrolmentCredential(EC_VALIDITY, stationKey.publicKey(), null, null), ea,
                eaSigner());
    }

    public EtsiCertificate issueAt(EtsiKeyPair atKey) {
        return CertificateIssuer.issue(CertificateProfiles.authorizationTicket(AT_VALIDITY, atKey.publicKey(), null, CAM_DENM, null), aa,
                aaSigner());
    }

    /** What the EA decrypts requests with: its encryption key and certificate. */
    public DecryptionIdentity eaIdentity() {
        return new DecryptionIdentity(eaEncKey, ea.hashedId8(), ea.sha256());
    }

    /** What the AA decrypts requests with: its encryption key and certificate. */
    public DecryptionIdentity aaIdentity() {
        return new DecryptionIdentity(aaEncKey, aa.hashedId8(), aa.sha256());
    }

    /** Bytes that look like a request payload: fixed content, the size is what matters. */
    public static byte[] payload(int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }
}
