package eu.vpki.common.etsi.crypto.pkcs11;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.ts102941.CaCertificateRequestMessages;
import eu.vpki.common.etsi.ts103097.CertificateChecks;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.Validity;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.ProviderException;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;

/**
 * The key ceremony of an authority with its keys in a PKCS#11 token (docs/pki-bootstrap.md): keys are
 * generated inside the token as persistent, private, sensitive, non-extractable objects, each for one
 * use only (a signing key cannot derive, an encryption key cannot sign); then the Root CA's
 * self-signed certificate, or an EA's or AA's {@code CaCertificateRequest}, is made with the token's
 * signing key. Every step adds lines to {@link #record()}: what the ceremony's witnesses write down
 * (labels, curves, public keys, the root's HashedId8). A label that already exists is never replaced.
 *
 * <p>Plain Java, no Spring: {@code vpki-admin ceremony} (the admin module's {@code CeremonyCommand}) drives it.
 */
public final class KeyCeremony implements AutoCloseable {
    private static final Provider BC = new BouncyCastleProvider();

    /** What a key is for; each purpose gets only the PKCS#11 usage attribute it needs. */
    public enum Purpose {
        SIGNING("CKA_SIGN = true\n  CKA_DERIVE = false\n"), ENCRYPTION("CKA_SIGN = false\n  CKA_DERIVE = true\n");

        private final String usage;

        Purpose(String usage) {
            this.usage = usage;
        }

        String generationAttributes() {
            return "attributes(generate, CKO_PRIVATE_KEY, CKK_EC) = {\n"
                    + "  CKA_TOKEN = true\n  CKA_PRIVATE = true\n  CKA_SENSITIVE = true\n  CKA_EXTRACTABLE = false\n  " + usage + "}\n"
                    + "attributes(generate, CKO_PUBLIC_KEY, CKK_EC) = {\n  CKA_TOKEN = true\n}\n";
        }
    }

    /** A key generated in the token. */
    public record GeneratedKey(String label, Purpose purpose, EtsiPublicKey publicKey) {
    }

    private final Pkcs11Settings settings;
    private final Clock clock;
    private final SecureRandom random;
    private final Pkcs11Token signingGenerator;
    private final Pkcs11Token encryptionGenerator;
    private final List<String> record = new ArrayList<>();

    private KeyCeremony(Pkcs11Settings settings, Clock clock, SecureRandom random) {
        this.settings = settings;
        this.clock = clock;
        this.random = random;
        this.signingGenerator = Pkcs11Token.open(settings, Purpose.SIGNING.generationAttributes(), clock, random);
        this.encryptionGenerator = Pkcs11Token.open(settings, Purpose.ENCRYPTION.generationAttributes(), clock, random);
        note("ceremony started " + clock.instant() + " on " + settings);
    }

    /** Logs in to the token. */
    public static KeyCeremony open(Pkcs11Settings settings, Clock clock, SecureRandom random) {
        return new KeyCeremony(settings, clock, random);
    }

    /**
     * Generates a key pair in the token under {@code label}.
     *
     * @throws PkiException {@link ErrorCode#KEY_STORE_FAILURE} when the label exists or the token refuses
     *                      ({@link ErrorCode#WRONG_CURVE} for an encryption key on brainpoolP384r1)
     */
    public GeneratedKey generate(String label, EtsiCurve curve, Purpose purpose) {
        if (label == null || label.isBlank()) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "a key needs a label");
        }
        if (purpose == Purpose.ENCRYPTION && !curve.encryptionCapable()) {
            throw new PkiException(ErrorCode.WRONG_CURVE, "IEEE 1609.2 defines no encryption key on " + curve.curveName());
        }
        Pkcs11Token generator = purpose == Purpose.SIGNING ? signingGenerator : encryptionGenerator;
        if (generator.labels().contains(label)) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, settings + " already holds a key labelled '" + label
                    + "': a ceremony never replaces a key");
        }
        try {
            KeyPairGenerator kpg = KeyPairGenerator.getInstance("EC", generator.provider());
            kpg.initialize(new ECGenParameterSpec(curve.curveName()), random);
            KeyPair pair = kpg.generateKeyPair();
            EtsiPublicKey publicKey = Pkcs11Token.publicKey(pair.getPublic(), label);
            generator.keyStore().setKeyEntry(label, pair.getPrivate(), null, new Certificate[]{holder(label, curve, pair)});
            note("key '" + label + "': " + purpose.name().toLowerCase(java.util.Locale.ROOT) + ", " + curve.curveName()
                    + ", public key " + HexFormat.of().formatHex(publicKey.compressed()));
            return new GeneratedKey(label, purpose, publicKey);
        } catch (GeneralSecurityException | ProviderException | OperatorCreationException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, settings + ": cannot generate key '" + label + "' on "
                    + curve.curveName() + ": " + Pkcs11Token.rootMessage(e), e);
        }
    }

    /**
     * The X.509 placeholder SunPKCS11's key store needs beside a private key to find it by label. It
     * is signed by a throw-away software key (a derive-only key cannot sign) and carries no trust.
     */
    private X509Certificate holder(String label, EtsiCurve curve, KeyPair pair) throws GeneralSecurityException, OperatorCreationException {
        KeyPairGenerator throwaway = KeyPairGenerator.getInstance("EC", BC);
        throwaway.initialize(new ECGenParameterSpec("secp256r1"), random);
        KeyPair signer = throwaway.generateKeyPair();
        X500Name name = new X500Name("CN=" + label.replaceAll("[,+=\"\\\\<>;]", "_") + ",OU=" + curve.curveName()
                + ",O=vpki PKCS#11 key holder (no trust)");
        Instant now = clock.instant();
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, new BigInteger(63, random),
                Date.from(now), Date.from(now.plusSeconds(100L * 365 * 24 * 3600)), name, pair.getPublic());
        return new JcaX509CertificateConverter().setProvider(BC)
                .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").setProvider(BC).build(signer.getPrivate())));
    }

    /** The signer of a key in the token (e.g. one generated in this ceremony). */
    public EtsiSigner signer(String label) {
        return usingToken().signer(label, null);
    }

    private Pkcs11Token token;

    private synchronized Pkcs11Token usingToken() {
        if (token == null) {
            token = Pkcs11Token.open(settings, clock, random);
        }
        return token;
    }

    /**
     * The Root CA's self-signed certificate, signed in the token with the key {@code signingLabel}
     * (profile as {@code RootCertificateProvisioning} makes it at a software RCA's first start).
     */
    public EtsiCertificate rootCertificate(String name, String signingLabel, int validityYears) {
        EtsiSigner signer = signer(signingLabel);
        Instant now = clock.instant();
        EtsiCertificate cert = CertificateIssuer.selfSign(CertificateProfiles.rootCa(name,
                Validity.of(now, Validity.Unit.YEARS, validityYears), signer.publicKey(), null,
                CertificateProfiles.defaultAuthorizationTicketRanges(), null), signer);
        if (!cert.hasAppPermission(Psids.CRL) || !cert.hasAppPermission(Psids.CTL) || !cert.isCa()) {
            throw new PkiException(ErrorCode.INVALID_PROFILE, "root certificate lacks CRL/CTL permissions or certIssuePermissions");
        }
        CertificateChecks.checkIssuedBy(cert, null, null);
        note("root certificate '" + name + "': HashedId8 " + cert.hashedId8().toHex() + ", valid until " + cert.validity().end()
                + ", SHA-256 of the certificate " + HexFormat.of().formatHex(cert.sha256()));
        return cert;
    }

    /**
     * An EA's or AA's {@code CaCertificateRequest} for its two keys in the token, signed with the
     * signing key (the Root CA checks that self-signature). {@code template} names the authority and
     * what it asks for, e.g. {@code CertificateProfiles.enrolmentAuthority(...)} with the generated keys.
     */
    public byte[] caCertificateRequest(CaCertificateRequestMessages.CaRequest request, String signingLabel) {
        EtsiSigner signer = signer(signingLabel);
        byte[] message = CaCertificateRequestMessages.request(request, signer, clock.instant());
        note("CA certificate request for '" + request.name() + "': " + message.length + " bytes, SHA-256 "
                + HexFormat.of().formatHex(eu.vpki.common.etsi.crypto.HashAlgorithm.SHA256.digest(message)));
        return message;
    }

    /** What to write down, one line per fact, in order. */
    public List<String> record() {
        return List.copyOf(record);
    }

    private void note(String line) {
        record.add(line);
    }

    @Override
    public void close() {
        signingGenerator.close();
        encryptionGenerator.close();
        if (token != null) {
            token.close();
        }
    }
}
