package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EcdsaSignature;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.oer.Coer;
import eu.vpki.common.etsi.oer.EtsiTime;
import eu.vpki.common.etsi.oer.OerKeys;
import org.bouncycastle.oer.its.ieee1609dot2.HashedData;
import org.bouncycastle.oer.its.ieee1609dot2.HeaderInfo;
import org.bouncycastle.oer.its.ieee1609dot2.Ieee1609Dot2Content;
import org.bouncycastle.oer.its.ieee1609dot2.Ieee1609Dot2Data;
import org.bouncycastle.oer.its.ieee1609dot2.SequenceOfCertificate;
import org.bouncycastle.oer.its.ieee1609dot2.SignedData;
import org.bouncycastle.oer.its.ieee1609dot2.SignedDataPayload;
import org.bouncycastle.oer.its.ieee1609dot2.SignerIdentifier;
import org.bouncycastle.oer.its.ieee1609dot2.ToBeSignedData;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.HashAlgorithm;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Psid;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Time64;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.UINT8;

import java.time.Instant;
import java.util.List;

/**
 * Builds EtsiTs103097Data-Signed and -SignedExternalPayload: header with PSID and generation time
 * (fixed by the caller), signer as digest, certificate or self, signature as IEEE 1609.2 5.3.1.
 */
public final class DataSigning {
    /** Ieee1609Dot2Data protocolVersion 3. */
    public static final UINT8 PROTOCOL_VERSION = new UINT8(3);

    private DataSigning() {
    }

    /**
     * Signs an unsecured payload.
     *
     * @param signerCertificate the signer's certificate; null only with {@link SignerKind#SELF}
     */
    public static byte[] sign(byte[] payload, long psid, Instant generationTime, SignerKind kind,
                              EtsiSigner signer, EtsiCertificate signerCertificate) {
        Ieee1609Dot2Data inner = new Ieee1609Dot2Data(PROTOCOL_VERSION, Ieee1609Dot2Content.unsecuredData(payload));
        return signPayload(new SignedDataPayload(inner, null), psid, generationTime, kind, signer, signerCertificate);
    }

    /** Signs the SHA-256 hash of data carried elsewhere (SignedExternalPayload). */
    public static byte[] signExternalPayload(byte[] sha256OfData, long psid, Instant generationTime, SignerKind kind,
                                             EtsiSigner signer, EtsiCertificate signerCertificate) {
        if (sha256OfData.length != 32) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "external payload hash must be SHA-256");
        }
        return signPayload(new SignedDataPayload(null, HashedData.sha256HashedData(sha256OfData)), psid, generationTime,
                kind, signer, signerCertificate);
    }

    private static byte[] signPayload(SignedDataPayload payload, long psid, Instant generationTime, SignerKind kind,
                                      EtsiSigner signer, EtsiCertificate signerCertificate) {
        if (kind != SignerKind.SELF && (signerCertificate == null || !signerCertificate.verificationKey().equals(signer.publicKey()))) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "signer key does not match the signer certificate");
        }
        HeaderInfo header = HeaderInfo.builder()
                .setPsid(new Psid(psid))
                .setGenerationTime(new Time64(EtsiTime.toTime64(generationTime)))
                .createHeaderInfo();
        ToBeSignedData tbs = new ToBeSignedData(payload, header);
        byte[] tbsEncoded = Coer.encode(tbs, Coer.Type.TO_BE_SIGNED_DATA);
        byte[] signerInput = kind == SignerKind.SELF ? new byte[0] : signerCertificate.encoded();
        EcdsaSignature sig = signer.signDigest(SignatureInput.digest(signer.curve(), tbsEncoded, signerInput));
        SignerIdentifier signerId = switch (kind) {
            // the whole-certificate HashedId8 (hash of the certificate's issuer curve), not one with the signer's own curve
            case DIGEST -> SignerIdentifier.digest(new org.bouncycastle.oer.its.ieee1609dot2.basetypes.HashedId8(
                    signerCertificate.hashedId8().bytes()));
            case CERTIFICATE -> SignerIdentifier.certificate(new SequenceOfCertificate(
                    List.of(org.bouncycastle.oer.its.ieee1609dot2.Certificate.getInstance(signerCertificate.oer()))));
            case SELF -> SignerIdentifier.self();
        };
        HashAlgorithm hashId = signer.curve().hash() == eu.vpki.common.etsi.crypto.HashAlgorithm.SHA256
                ? HashAlgorithm.sha256
                : HashAlgorithm.sha384;
        SignedData sd = new SignedData(hashId, tbs, signerId, OerKeys.signature(sig));
        return Coer.encode(new Ieee1609Dot2Data(PROTOCOL_VERSION, Ieee1609Dot2Content.signedData(sd)), Coer.Type.DATA);
    }
}
