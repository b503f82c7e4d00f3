package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EcdsaSignature;
import eu.vpki.common.etsi.crypto.EcdsaVerification;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.oer.Coer;
import eu.vpki.common.etsi.oer.EtsiTime;
import eu.vpki.common.etsi.oer.OerKeys;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.oer.its.ieee1609dot2.Certificate;
import org.bouncycastle.oer.its.ieee1609dot2.HashedData;
import org.bouncycastle.oer.its.ieee1609dot2.HeaderInfo;
import org.bouncycastle.oer.its.ieee1609dot2.Ieee1609Dot2Content;
import org.bouncycastle.oer.its.ieee1609dot2.Ieee1609Dot2Data;
import org.bouncycastle.oer.its.ieee1609dot2.Opaque;
import org.bouncycastle.oer.its.ieee1609dot2.SequenceOfCertificate;
import org.bouncycastle.oer.its.ieee1609dot2.SignedData;
import org.bouncycastle.oer.its.ieee1609dot2.SignedDataPayload;
import org.bouncycastle.oer.its.ieee1609dot2.SignerIdentifier;
import org.bouncycastle.oer.its.etsi103097.EtsiTs103097Certificate;

import java.time.Instant;
import java.util.Optional;

/**
 * A parsed EtsiTs103097Data-Signed (or -SignedExternalPayload), not yet verified. Call one of the
 * {@code verify}/{@code require} methods with the signer's certificate or key before trusting
 * anything in it.
 */
public final class SignedMessage {
    private final byte[] encoded;
    private final byte[] payload;
    private final byte[] externalDataHash;
    private final long psid;
    private final Instant generationTime;
    private final SignerKind signerKind;
    private final HashedId8 signerDigest;
    private final EtsiCertificate signerCertificate;
    private final EcdsaSignature signature;
    private final byte[] toBeSignedEncoded;

    private SignedMessage(byte[] encoded, SignedData sd) {
        this.encoded = encoded;
        this.toBeSignedEncoded = Coer.encode(sd.getTbsData(), Coer.Type.TO_BE_SIGNED_DATA);
        HeaderInfo header = sd.getTbsData().getHeaderInfo();
        this.psid = header.getPsid().getPsid().longValueExact();
        this.generationTime = header.getGenerationTime() == null
                ? null
                : EtsiTime.fromTime64(header.getGenerationTime().getValue().longValueExact());
        SignedDataPayload p = sd.getTbsData().getPayload();
        if (p.getData() != null) {
            Ieee1609Dot2Data inner = p.getData();
            if (inner.getProtocolVersion().getValue().intValue() != 3
                    || inner.getContent().getChoice() != Ieee1609Dot2Content.unsecuredData) {
                throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "signed payload must be unsecuredData of protocol version 3");
            }
            this.payload = Opaque.getInstance(inner.getContent().getIeee1609Dot2Content()).getContent();
            this.externalDataHash = null;
        } else if (p.getExtDataHash() != null) {
            if (p.getExtDataHash().getChoice() != HashedData.sha256HashedData) {
                throw new PkiException(ErrorCode.UNSUPPORTED_ALGORITHM, "external data hash must be SHA-256");
            }
            this.payload = null;
            this.externalDataHash = ASN1OctetString.getInstance(p.getExtDataHash().getHashedData()).getOctets();
        } else {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "signed data without payload");
        }
        SignerIdentifier signer = sd.getSigner();
        switch (signer.getChoice()) {
            case SignerIdentifier.digest -> {
                this.signerKind = SignerKind.DIGEST;
                this.signerDigest = HashedId8.of(org.bouncycastle.oer.its.ieee1609dot2.basetypes.HashedId8
                        .getInstance(signer.getSignerIdentifier()).getHashBytes());
                this.signerCertificate = null;
            }
            case SignerIdentifier.certificate -> {
                var certs = SequenceOfCertificate.getInstance(signer.getSignerIdentifier()).getCertificates();
                if (certs.size() != 1) {
                    throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "signer must be exactly one certificate");
                }
                this.signerKind = SignerKind.CERTIFICATE;
                Certificate c = certs.get(0);
                this.signerCertificate = EtsiCertificate.decode(Coer.encode(
                        EtsiTs103097Certificate.getInstance(c), Coer.Type.CERTIFICATE));
                this.signerDigest = null;
            }
            case SignerIdentifier.self -> {
                this.signerKind = SignerKind.SELF;
                this.signerDigest = null;
                this.signerCertificate = null;
            }
            default -> throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "unknown signer choice " + signer.getChoice());
        }
        this.signature = OerKeys.fromSignature(sd.getSignature());
    }

    /**
     * Parses a COER Ieee1609Dot2Data that must hold signedData.
     *
     * @throws PkiException on any structural problem
     */
    public static SignedMessage parse(byte[] coer) {
        return of(coer, Ieee1609Dot2Data.getInstance(Coer.decode(coer, Coer.Type.DATA)));
    }

    /**
     * As {@link #parse}, for a caller that has already decoded {@code coer} (canonically, with
     * {@code Coer.decode}) into {@code data}: the message is not decoded a second time.
     */
    public static SignedMessage of(byte[] coer, Ieee1609Dot2Data data) {
        try {
            if (data.getProtocolVersion().getValue().intValue() != 3) {
                throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "protocol version must be 3");
            }
            if (data.getContent().getChoice() != Ieee1609Dot2Content.signedData) {
                throw new PkiException(ErrorCode.UNEXPECTED_CONTENT,
                        "expected signedData, got content choice " + data.getContent().getChoice());
            }
            return new SignedMessage(coer.clone(), SignedData.getInstance(data.getContent().getIeee1609Dot2Content()));
        } catch (PkiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "signed data structure not understood: " + e.getMessage(), e);
        }
    }

    public byte[] encoded() {
        return encoded.clone();
    }

    /** The unsecured payload; empty for an external-payload signature. */
    public Optional<byte[]> payload() {
        return Optional.ofNullable(payload).map(byte[]::clone);
    }

    /** The payload, or UNEXPECTED_CONTENT when the message signs an external payload. */
    public byte[] requirePayload() {
        if (payload == null) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "signed data has no embedded payload");
        }
        return payload.clone();
    }

    public Optional<byte[]> externalDataHash() {
        return Optional.ofNullable(externalDataHash).map(byte[]::clone);
    }

    public long psid() {
        return psid;
    }

    public Optional<Instant> generationTime() {
        return Optional.ofNullable(generationTime);
    }

    public SignerKind signerKind() {
        return signerKind;
    }

    public Optional<HashedId8> signerDigest() {
        return Optional.ofNullable(signerDigest);
    }

    public Optional<EtsiCertificate> signerCertificate() {
        return Optional.ofNullable(signerCertificate);
    }

    public EcdsaSignature signature() {
        return signature;
    }

    /** Whether the signer named is {@code cert} (by digest or by included certificate). */
    public boolean namesSigner(EtsiCertificate cert) {
        return switch (signerKind) {
            case DIGEST -> signerDigest.equals(cert.hashedId8());
            case CERTIFICATE -> signerCertificate.equals(cert);
            case SELF -> false;
        };
    }

    /** Verifies a digest- or certificate-signed message against the signer's certificate. */
    public boolean verifiesWith(EtsiCertificate signer) {
        EtsiPublicKey key = signer.verificationKey();
        if (key.curve() != signature.curve() || signerKind == SignerKind.SELF) {
            return false;
        }
        byte[] digest = SignatureInput.digest(key.curve(), toBeSignedEncoded, signer.encoded());
        return EcdsaVerification.verify(key, digest, signature);
    }

    /** Verifies a self-signed message with the key that is supposed to have signed it. */
    public boolean verifiesSelfSigned(EtsiPublicKey key) {
        if (signerKind != SignerKind.SELF || key.curve() != signature.curve()) {
            return false;
        }
        byte[] digest = SignatureInput.digest(key.curve(), toBeSignedEncoded, new byte[0]);
        return EcdsaVerification.verify(key, digest, signature);
    }

    /** Requires that {@code signer} is the named signer and that the signature verifies. */
    public SignedMessage requireSignedBy(EtsiCertificate signer) {
        if (!namesSigner(signer)) {
            throw new PkiException(ErrorCode.UNKNOWN_SIGNER, "message is not signed by " + signer);
        }
        if (!verifiesWith(signer)) {
            throw new PkiException(ErrorCode.INVALID_SIGNATURE, "signature by " + signer + " does not verify");
        }
        return this;
    }

    /** Requires a self-signature by {@code key}. */
    public SignedMessage requireSelfSignedBy(EtsiPublicKey key, ErrorCode onFailure) {
        if (signerKind != SignerKind.SELF) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "expected a self-signed structure, signer is " + signerKind);
        }
        if (!verifiesSelfSigned(key)) {
            throw new PkiException(onFailure, "self-signature does not verify with the expected key");
        }
        return this;
    }

    /** Requires the PSID. */
    public SignedMessage requirePsid(long expected) {
        if (psid != expected) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "PSID " + psid + " where " + expected + " was expected");
        }
        return this;
    }
}
