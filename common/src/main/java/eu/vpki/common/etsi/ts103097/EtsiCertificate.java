package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EcdsaSignature;
import eu.vpki.common.etsi.crypto.EcdsaVerification;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.HashAlgorithm;
import eu.vpki.common.etsi.oer.Coer;
import eu.vpki.common.etsi.oer.OerKeys;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.oer.its.etsi103097.EtsiTs103097Certificate;
import org.bouncycastle.oer.its.ieee1609dot2.CertificateId;
import org.bouncycastle.oer.its.ieee1609dot2.CertificateType;
import org.bouncycastle.oer.its.ieee1609dot2.IssuerIdentifier;
import org.bouncycastle.oer.its.ieee1609dot2.ToBeSignedCertificate;
import org.bouncycastle.oer.its.ieee1609dot2.VerificationKeyIndicator;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.PublicVerificationKey;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Hostname;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A decoded TS 103 097 explicit certificate. Immutable; decoding does the expensive parts once
 * (keys, HashedId8, to-be-signed bytes) so that verifying with it later is cheap.
 */
public final class EtsiCertificate {
    private final byte[] encoded;
    private final EtsiTs103097Certificate oer;
    private final byte[] toBeSignedEncoded;
    private final HashedId8 hashedId8;
    private final HashAlgorithm hashAlgorithm;
    private final HashedId8 issuerId;
    private final HashAlgorithm issuerHashAlgorithm;
    private final String name;
    private final Validity validity;
    private final GeographicRegion region;
    private final Integer assuranceLevel;
    private final List<PsidSsp> appPermissions;
    private final List<PsidGroupPermissions> certIssuePermissions;
    private final EtsiPublicKey verificationKey;
    private final EtsiPublicKey encryptionKey;
    private final EcdsaSignature signature;
    private final boolean canonical;
    private final byte[] cracaId;
    private final int crlSeries;

    private EtsiCertificate(byte[] encoded, EtsiTs103097Certificate oer) {
        this(encoded, oer, null);
    }

    /** {@code toBeSignedEncoded}: the to-be-signed part's encoding when the caller has it, else null. */
    private EtsiCertificate(byte[] encoded, EtsiTs103097Certificate oer, byte[] toBeSignedEncoded) {
        this.encoded = encoded;
        this.oer = oer;
        if (oer.getVersion().getValue().intValue() != 3) {
            throw new PkiException(ErrorCode.INVALID_PROFILE, "certificate version must be 3");
        }
        if (!CertificateType.explicit.equals(oer.getType())) {
            throw new PkiException(ErrorCode.INVALID_PROFILE, "only explicit certificates are supported");
        }
        if (oer.getSignature() == null) {
            throw new PkiException(ErrorCode.INVALID_PROFILE, "explicit certificate without signature");
        }
        ToBeSignedCertificate tbs = oer.getToBeSigned();
        this.toBeSignedEncoded = toBeSignedEncoded != null ? toBeSignedEncoded : Coer.encode(tbs, Coer.Type.TO_BE_SIGNED_CERTIFICATE);
        this.signature = OerKeys.fromSignature(oer.getSignature());

        IssuerIdentifier issuer = oer.getIssuer();
        switch (issuer.getChoice()) {
            case IssuerIdentifier.self -> {
                this.issuerId = null;
                var alg = org.bouncycastle.oer.its.ieee1609dot2.basetypes.HashAlgorithm.getInstance(issuer.getIssuerIdentifier());
                this.issuerHashAlgorithm = alg.getValue().intValue() == 0 ? HashAlgorithm.SHA256 : HashAlgorithm.SHA384;
            }
            case IssuerIdentifier.sha256AndDigest -> {
                this.issuerId = HashedId8.of(ASN1OctetString.getInstance(issuer.getIssuerIdentifier()).getOctets());
                this.issuerHashAlgorithm = HashAlgorithm.SHA256;
            }
            case IssuerIdentifier.sha384AndDigest -> {
                this.issuerId = HashedId8.of(ASN1OctetString.getInstance(issuer.getIssuerIdentifier()).getOctets());
                this.issuerHashAlgorithm = HashAlgorithm.SHA384;
            }
            default -> throw new PkiException(ErrorCode.MALFORMED_ENCODING, "unknown issuer choice " + issuer.getChoice());
        }

        CertificateId id = tbs.getId();
        this.name = id.getChoice() == CertificateId.name ? Hostname.getInstance(id.getCertificateId()).getHostName() : null;
        this.cracaId = tbs.getCracaId().getHashBytes();
        this.crlSeries = tbs.getCrlSeries().getValue().intValueExact();
        this.validity = CertificateFields.fromOer(tbs.getValidityPeriod());
        this.region = CertificateFields.fromOer(tbs.getRegion());
        this.assuranceLevel = tbs.getAssuranceLevel() == null ? null : tbs.getAssuranceLevel().getOctets()[0] & 0xFF;
        this.appPermissions = CertificateFields.fromOer(tbs.getAppPermissions());
        this.certIssuePermissions = CertificateFields.fromOerGroups(tbs.getCertIssuePermissions());

        VerificationKeyIndicator vki = tbs.getVerifyKeyIndicator();
        if (vki.getChoice() != VerificationKeyIndicator.verificationKey) {
            throw new PkiException(ErrorCode.INVALID_PROFILE, "explicit certificate must carry a verification key");
        }
        PublicVerificationKey pvk = PublicVerificationKey.getInstance(vki.getVerificationKeyIndicator());
        this.verificationKey = OerKeys.fromVerificationKey(pvk);
        // whole-certificate hash: the hash paired with the certificate's own key, as those who
        // sign with it name it (the ETSI test suite names brainpoolP384r1 CAs by SHA-384)
        this.hashAlgorithm = verificationKey.curve().hash();
        this.hashedId8 = HashedId8.hashOf(encoded, hashAlgorithm);
        boolean keysCompressed = OerKeys.isCompressed(pvk.getPublicVerificationKey());
        if (tbs.getEncryptionKey() != null) {
            this.encryptionKey = OerKeys.fromEncryptionKey(tbs.getEncryptionKey());
            keysCompressed &= OerKeys.isCompressed(tbs.getEncryptionKey().getPublicKey().getBasePublicEncryptionKey());
        } else {
            this.encryptionKey = null;
        }
        this.canonical = keysCompressed && OerKeys.isCanonical(oer.getSignature());
    }

    /**
     * Decodes a COER certificate (canonical encoding required).
     *
     * @throws PkiException with a decoding or profile error code
     */
    public static EtsiCertificate decode(byte[] coer) {
        var parsed = Coer.decode(coer, Coer.Type.CERTIFICATE);
        try {
            return new EtsiCertificate(coer.clone(), EtsiTs103097Certificate.getInstance(parsed));
        } catch (PkiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "certificate structure not understood: " + e.getMessage(), e);
        }
    }

    /**
     * A certificate this process has just encoded from {@code oer}, whose to-be-signed part is
     * {@code toBeSignedEncoded} inside {@code encoded} ({@link CertificateIssuer} checks that):
     * the profile checks run, the decoding does not.
     */
    static EtsiCertificate issued(byte[] encoded, EtsiTs103097Certificate oer, byte[] toBeSignedEncoded) {
        return new EtsiCertificate(encoded, oer, toBeSignedEncoded);
    }

    /** The BouncyCastle structure; ETSI core internal (services never import BouncyCastle). */
    public EtsiTs103097Certificate oer() {
        return oer;
    }

    public byte[] encoded() {
        return encoded.clone();
    }

    public int encodedLength() {
        return encoded.length;
    }

    public HashedId8 hashedId8() {
        return hashedId8;
    }

    /** The hash of this certificate's own key curve: its HashedId8 and the signatures made with its key use it. */
    public HashAlgorithm hashAlgorithm() {
        return hashAlgorithm;
    }

    /** SHA-256 over the whole COER certificate (the ECIES P1 parameter when encrypting to it). */
    public byte[] sha256() {
        return HashAlgorithm.SHA256.digest(encoded);
    }

    public boolean selfSigned() {
        return issuerId == null;
    }

    /** HashedId8 of the issuer; empty for a self-signed certificate. */
    public Optional<HashedId8> issuerId() {
        return Optional.ofNullable(issuerId);
    }

    public HashAlgorithm issuerHashAlgorithm() {
        return issuerHashAlgorithm;
    }

    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    public byte[] cracaId() {
        return cracaId.clone();
    }

    public int crlSeries() {
        return crlSeries;
    }

    public Validity validity() {
        return validity;
    }

    public Optional<GeographicRegion> region() {
        return Optional.ofNullable(region);
    }

    public Optional<Integer> assuranceLevel() {
        return Optional.ofNullable(assuranceLevel);
    }

    public List<PsidSsp> appPermissions() {
        return appPermissions;
    }

    public List<PsidGroupPermissions> certIssuePermissions() {
        return certIssuePermissions;
    }

    public boolean isCa() {
        return !certIssuePermissions.isEmpty();
    }

    public EtsiPublicKey verificationKey() {
        return verificationKey;
    }

    public Optional<EtsiPublicKey> encryptionKey() {
        return Optional.ofNullable(encryptionKey);
    }

    public EcdsaSignature signature() {
        return signature;
    }

    /** Whether keys are compressed and signature r is x-only, as IEEE 1609.2 canonical form demands. */
    public boolean canonical() {
        return canonical;
    }

    /** This certificate as the recipient of an encryption; INVALID_PROFILE when it has no encryption key. */
    public EncryptionRecipient asEncryptionRecipient() {
        if (encryptionKey == null) {
            throw new PkiException(ErrorCode.INVALID_PROFILE, this + " has no encryption key");
        }
        return new EncryptionRecipient(encryptionKey, hashedId8, sha256());
    }

    public boolean validAt(Instant t) {
        return validity.contains(t);
    }

    public boolean hasAppPermission(long psid) {
        return appPermissions.stream().anyMatch(p -> p.psid() == psid);
    }

    /**
     * Whether the signature verifies with {@code issuer}'s key (or with this certificate's own key
     * when {@code issuer} is null and the certificate is self-signed).
     */
    public boolean signatureVerifies(EtsiCertificate issuer) {
        EtsiPublicKey key = issuer == null ? verificationKey : issuer.verificationKey;
        if (key.curve() != signature.curve()) {
            return false;
        }
        byte[] signerInput = issuer == null ? new byte[0] : issuer.encoded;
        byte[] digest = SignatureInput.digest(signature.curve(), toBeSignedEncoded, signerInput);
        return EcdsaVerification.verify(key, digest, signature);
    }

    /** Whether {@code issuer} is the certificate this one names as issuer (by HashedId8 with the named hash). */
    public boolean namesIssuer(EtsiCertificate issuer) {
        return issuerId != null && issuerId.equals(HashedId8.hashOf(issuer.encoded, issuerHashAlgorithm));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EtsiCertificate c && java.util.Arrays.equals(c.encoded, encoded);
    }

    @Override
    public int hashCode() {
        return hashedId8.hashCode();
    }

    @Override
    public String toString() {
        return "EtsiCertificate[" + hashedId8 + (name == null ? "" : " " + name) + ", " + verificationKey.curve()
                + ", valid " + validity.start() + " to " + validity.end() + "]";
    }

    /** Curve of the issuer's signature. */
    public EtsiCurve signatureCurve() {
        return signature.curve();
    }
}
