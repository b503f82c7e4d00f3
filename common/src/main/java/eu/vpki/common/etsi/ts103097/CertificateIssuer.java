package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EcdsaSignature;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.oer.Coer;
import eu.vpki.common.etsi.oer.OerKeys;
import org.bouncycastle.oer.its.etsi103097.EtsiTs103097Certificate;
import org.bouncycastle.oer.its.ieee1609dot2.CertificateId;
import org.bouncycastle.oer.its.ieee1609dot2.IssuerIdentifier;
import org.bouncycastle.oer.its.ieee1609dot2.ToBeSignedCertificate;
import org.bouncycastle.oer.its.ieee1609dot2.VerificationKeyIndicator;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.CrlSeries;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.HashAlgorithm;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.HashedId3;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.HashedId8;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Hostname;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Signature;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SubjectAssurance;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.UINT8;

import java.util.Arrays;

/**
 * Issues TS 103 097 explicit certificates in canonical form and signs them as IEEE 1609.2 defines.
 * Every certificate is checked against its issuer ({@link CertificateChecks}) before it is
 * returned: a certificate that would not validate never leaves.
 *
 * <p>An issued (not self-signed) certificate's signature is not verified again: that verification
 * cost as much as the signing (6 % of an AA's CPU per AT, docs/benchmarks-history.md) and can only fail if
 * one of three facts does not hold, each checked or true by construction instead:
 * <ul>
 *   <li>the signer's public key is the issuer certificate's verification key (checked in {@link #issue});</li>
 *   <li>the signer's private key matches its public key ({@link EtsiSigner}'s contract; an
 *       {@code EtsiKeyPair} derives its public key from the private scalar);</li>
 *   <li>the bytes signed are the bytes a relying party hashes: the encoded certificate must hold
 *       them, byte for byte, just before its signature (checked here).</li>
 * </ul>
 * Self-signed certificates are rare and keep the full check, signature included.
 */
public final class CertificateIssuer {
    private static final UINT8 VERSION_3 = new UINT8(3);
    private static final HashedId3 NO_CRACA = new HashedId3(new byte[3]);
    private static final CrlSeries CRL_SERIES_0 = new CrlSeries(0);

    private CertificateIssuer() {
    }

    /** A self-signed (root) certificate. */
    public static EtsiCertificate selfSign(CertificateTemplate template, EtsiSigner signer) {
        if (!template.verificationKey().equals(signer.publicKey())) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "a self-signed certificate must carry the signer's key");
        }
        IssuerIdentifier issuerId = IssuerIdentifier.self(signer.curve().hash() == eu.vpki.common.etsi.crypto.HashAlgorithm.SHA256
                ? HashAlgorithm.sha256
                : HashAlgorithm.sha384);
        return sign(template, issuerId, null, signer);
    }

    /** A certificate issued by {@code issuer}, signed with {@code issuerSigner} (the issuer's key). */
    public static EtsiCertificate issue(CertificateTemplate template, EtsiCertificate issuer, EtsiSigner issuerSigner) {
        if (!issuer.verificationKey().equals(issuerSigner.publicKey())) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "signer key does not match the issuer certificate " + issuer);
        }
        // the issuer is named by its whole-certificate HashedId8, with the hash that identifies it
        var digest = new HashedId8(issuer.hashedId8().bytes());
        IssuerIdentifier issuerId = issuer.hashAlgorithm() == eu.vpki.common.etsi.crypto.HashAlgorithm.SHA256
                ? IssuerIdentifier.sha256AndDigest(digest)
                : IssuerIdentifier.sha384AndDigest(digest);
        return sign(template, issuerId, issuer, issuerSigner);
    }

    private static EtsiCertificate sign(CertificateTemplate t, IssuerIdentifier issuerId, EtsiCertificate issuer, EtsiSigner signer) {
        ToBeSignedCertificate.Builder b = ToBeSignedCertificate.builder()
                .setId(t.name() == null ? CertificateId.none() : CertificateId.name(new Hostname(t.name())))
                .setCracaId(NO_CRACA)
                .setCrlSeries(CRL_SERIES_0)
                .setValidityPeriod(CertificateFields.toOer(t.validity()))
                .setVerifyKeyIndicator(VerificationKeyIndicator.verificationKey(OerKeys.verificationKey(t.verificationKey())));
        if (t.region() != null) {
            b.setRegion(CertificateFields.toOer(t.region()));
        }
        if (t.assuranceLevel() != null) {
            b.setAssuranceLevel(new SubjectAssurance(new byte[]{(byte) t.assuranceLevel().intValue()}));
        }
        if (!t.appPermissions().isEmpty()) {
            b.setAppPermissions(CertificateFields.toOer(t.appPermissions()));
        }
        if (!t.certIssuePermissions().isEmpty()) {
            b.setCertIssuePermissions(CertificateFields.toOerGroups(t.certIssuePermissions()));
        }
        if (t.encryptionKey() != null) {
            b.setEncryptionKey(OerKeys.encryptionKey(t.encryptionKey()));
        }
        ToBeSignedCertificate tbs = b.createToBeSignedCertificate();
        byte[] tbsEncoded = Coer.encode(tbs, Coer.Type.TO_BE_SIGNED_CERTIFICATE);
        byte[] digest = SignatureInput.digest(signer.curve(), tbsEncoded, issuer == null ? new byte[0] : issuer.encoded());
        EcdsaSignature sig = signer.signDigest(digest);
        Signature signature = OerKeys.signature(sig);
        var cert = new EtsiTs103097Certificate(VERSION_3, issuerId, tbs, signature);
        byte[] encoded = Coer.encode(cert, Coer.Type.CERTIFICATE);
        // OER concatenates a SEQUENCE's components: the certificate is a short header, the to-be-signed
        // part and the signature. What a relying party hashes must be exactly what was signed.
        byte[] signatureEncoded = Coer.encode(signature, Coer.Type.SIGNATURE);
        int signatureStart = encoded.length - signatureEncoded.length;
        int toBeSignedStart = signatureStart - tbsEncoded.length;
        if (toBeSignedStart < 0
                || !Arrays.equals(encoded, toBeSignedStart, signatureStart, tbsEncoded, 0, tbsEncoded.length)
                || !Arrays.equals(encoded, signatureStart, encoded.length, signatureEncoded, 0, signatureEncoded.length)) {
            throw new PkiException(ErrorCode.INTERNAL_ERROR, "the encoded certificate does not hold the signed to-be-signed bytes");
        }
        EtsiCertificate issued = EtsiCertificate.issued(encoded, cert, tbsEncoded);
        if (issuer == null) {
            CertificateChecks.checkIssuedBy(issued, null, null);
        } else {
            CertificateChecks.checkFreshlyIssuedBy(issued, issuer);
        }
        return issued;
    }
}
