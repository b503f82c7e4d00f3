package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.AesCcm;
import eu.vpki.common.etsi.crypto.Ecies;
import eu.vpki.common.etsi.crypto.EciesEncryptedKey;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.HashAlgorithm;
import eu.vpki.common.etsi.oer.Coer;
import eu.vpki.common.etsi.oer.OerKeys;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.oer.its.ieee1609dot2.AesCcmCiphertext;
import org.bouncycastle.oer.its.ieee1609dot2.EncryptedData;
import org.bouncycastle.oer.its.ieee1609dot2.EncryptedDataEncryptionKey;
import org.bouncycastle.oer.its.ieee1609dot2.Ieee1609Dot2Content;
import org.bouncycastle.oer.its.ieee1609dot2.Ieee1609Dot2Data;
import org.bouncycastle.oer.its.ieee1609dot2.Opaque;
import org.bouncycastle.oer.its.ieee1609dot2.PKRecipientInfo;
import org.bouncycastle.oer.its.ieee1609dot2.PreSharedKeyRecipientInfo;
import org.bouncycastle.oer.its.ieee1609dot2.RecipientInfo;
import org.bouncycastle.oer.its.ieee1609dot2.SequenceOfRecipientInfo;
import org.bouncycastle.oer.its.ieee1609dot2.SymmetricCiphertext;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.EccP256CurvePoint;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.EciesP256EncryptedKey;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SymmetricEncryptionKey;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.UINT8;

import java.security.SecureRandom;
import java.util.List;

/**
 * Encryption and decryption of {@code EtsiTs103097Data-Encrypted} (IEEE 1609.2 clause 5.3.4 and its
 * {@code EncryptedData} structures, ETSI TS 103 097 v2.1.1): the content is encrypted with
 * AES-128-CCM under a fresh (or pre-shared) 16-byte key and a random 12-byte nonce, giving
 * {@code Ieee1609Dot2Data{protocolVersion 3, encryptedData{recipients, aes128ccm{nonce, ccmCiphertext}}}}.
 * <ul>
 *   <li>{@link #encryptFor}: one {@code certRecipInfo} whose {@code recipientId} is the recipient
 *       certificate's HashedId8 and whose key is ECIES-encrypted ({@link Ecies}) with P1 = the
 *       whole-certificate hash, labelled {@code eciesNistP256} or {@code eciesBrainpoolP256r1} by
 *       the recipient's curve, V as a compressed point. This is how an ITS station encrypts an
 *       enrolment or authorization request and how the AA encrypts to the EA.</li>
 *   <li>{@link #encryptWithPreSharedKey}: one {@code pskRecipInfo} ({@code PreSharedKeyRecipientInfo
 *       ::= HashedId8}); IEEE 1609.2 defines it as the low-order 8 bytes of the SHA-256 hash of the
 *       COER encoding of {@code SymmetricEncryptionKey ::= CHOICE { aes128Ccm OCTET STRING (SIZE(16)), ... }}
 *       holding the key, i.e. of {@code 0x80 || key} (tag of the first root alternative, fixed-size
 *       octet string without length). This is how TS 102 941 (clause 6.2.3) encrypts enrolment,
 *       authorization and authorization-validation responses: with the AES key of the request.
 *       Note: the TS 103 097 v2.1.1 ASN.1 constrains {@code EtsiTs103097Data} to
 *       {@code pskRecipInfo ABSENT}, which contradicts TS 102 941's responses and what clients
 *       expect; we follow TS 102 941.</li>
 * </ul>
 * Decryption parses with the canonical COER check, finds our recipient entry by HashedId8, recovers
 * the key and checks the CCM tag; every failure is a {@link PkiException} (never a library
 * exception). Thread-safe: the OER definitions are built once in {@link Coer}, and
 * {@link SecureRandom} is thread-safe.
 */
public final class DataEncryption {
    private static final int PROTOCOL_VERSION = 3;

    private final SecureRandom random;

    public DataEncryption(SecureRandom random) {
        this.random = random;
    }

    /** Encrypts for a certificate under a fresh AES-128 key, which is returned with the encoding. */
    public EncryptedMessage encryptFor(EncryptionRecipient recipient, byte[] plaintext) {
        byte[] aesKey = randomBytes(AesCcm.KEY_BYTES);
        EciesEncryptedKey wrapped = Ecies.encrypt(recipient.encryptionKey(), aesKey, recipient.certificateHash(), random);
        RecipientInfo recipientInfo = RecipientInfo.certRecipInfo(new PKRecipientInfo(
                // BouncyCastle's HashedId8 type, not ours
                new org.bouncycastle.oer.its.ieee1609dot2.basetypes.HashedId8(recipient.certificateId().bytes()),
                encryptedDataEncryptionKey(wrapped)));
        return new EncryptedMessage(encode(recipientInfo, aesKey, plaintext), aesKey);
    }

    /**
     * Decrypts a message addressed to our certificate ({@code certRecipInfo} with our HashedId8).
     *
     * @throws PkiException {@link ErrorCode#MALFORMED_ENCODING} / {@link ErrorCode#NON_CANONICAL_ENCODING}
     *                      for bytes that are not canonical COER, {@link ErrorCode#UNEXPECTED_CONTENT}
     *                      when the data is not encrypted, {@link ErrorCode#NOT_ENCRYPTED_FOR_US} when
     *                      no recipient entry names our certificate, {@link ErrorCode#WRONG_CURVE} when
     *                      our entry is for another curve, {@link ErrorCode#UNSUPPORTED_ALGORITHM} for
     *                      another key-encryption or symmetric algorithm, {@link ErrorCode#DECRYPTION_FAILED}
     *                      when the ECIES or CCM tag does not verify
     */
    public DecryptedMessage decrypt(DecryptionIdentity us, byte[] encryptedData) {
        try {
            EncryptedData data = parse(encryptedData);
            PKRecipientInfo ours = findCertRecipient(data.getRecipients(), us.certificateId());
            byte[] aesKey = Ecies.decrypt(us.encryptionKey(), eciesKey(ours.getEncKey()), us.certificateHash());
            return new DecryptedMessage(decryptCiphertext(data.getCiphertext(), aesKey), aesKey);
        } catch (PkiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw malformed(e);
        }
    }

    /** Encrypts under a pre-shared AES-128 key (recipient {@code pskRecipInfo}). */
    public byte[] encryptWithPreSharedKey(byte[] aesKey, byte[] plaintext) {
        HashedId8 id = preSharedKeyId(aesKey);
        return encode(RecipientInfo.pskRecipInfo(new PreSharedKeyRecipientInfo(id.bytes())), aesKey, plaintext);
    }

    /**
     * Decrypts a message encrypted under a pre-shared AES-128 key.
     *
     * @throws PkiException as {@link #decrypt}; {@link ErrorCode#NOT_ENCRYPTED_FOR_US} when no
     *                      {@code pskRecipInfo} names this key
     */
    public byte[] decryptWithPreSharedKey(byte[] aesKey, byte[] encryptedData) {
        HashedId8 id = preSharedKeyId(aesKey);
        try {
            EncryptedData data = parse(encryptedData);
            boolean named = data.getRecipients().getRecipientInfos().stream()
                    .anyMatch(r -> r.getChoice() == RecipientInfo.pskRecipInfo && id.equals(hashedId8(r.getRecipientInfo())));
            if (!named) {
                throw new PkiException(ErrorCode.NOT_ENCRYPTED_FOR_US, "no pskRecipInfo for pre-shared key " + id);
            }
            return decryptCiphertext(data.getCiphertext(), aesKey);
        } catch (PkiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw malformed(e);
        }
    }

    /**
     * The {@code PreSharedKeyRecipientInfo} of an AES-128 key: HashedId8 (SHA-256, low-order 8 bytes)
     * of the COER encoding of {@code SymmetricEncryptionKey.aes128Ccm(key)}.
     */
    public static HashedId8 preSharedKeyId(byte[] aesKey) {
        if (aesKey == null || aesKey.length != AesCcm.KEY_BYTES) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "pre-shared key must be an AES-128 key of " + AesCcm.KEY_BYTES + " bytes");
        }
        byte[] coer = Coer.encode(SymmetricEncryptionKey.aes128ccm(aesKey), Coer.Type.SYMMETRIC_ENCRYPTION_KEY);
        return HashedId8.hashOf(coer, HashAlgorithm.SHA256);
    }

    // ---- encoding -----------------------------------------------------------------------------

    private byte[] encode(RecipientInfo recipient, byte[] aesKey, byte[] plaintext) {
        if (plaintext == null) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "no plaintext");
        }
        byte[] nonce = randomBytes(AesCcm.NONCE_BYTES);
        byte[] ccmCiphertext = AesCcm.encrypt(aesKey, nonce, plaintext);
        EncryptedData encrypted = new EncryptedData(new SequenceOfRecipientInfo(List.of(recipient)),
                SymmetricCiphertext.aes128ccm(new AesCcmCiphertext(new DEROctetString(nonce), new Opaque(ccmCiphertext))));
        return Coer.encode(new Ieee1609Dot2Data(new UINT8(PROTOCOL_VERSION), Ieee1609Dot2Content.encryptedData(encrypted)),
                Coer.Type.DATA);
    }

    private static EncryptedDataEncryptionKey encryptedDataEncryptionKey(EciesEncryptedKey key) {
        EciesP256EncryptedKey p256 = new EciesP256EncryptedKey(OerKeys.compressedP256(key.v()),
                new DEROctetString(key.c()), new DEROctetString(key.t()));
        return switch (key.v().curve()) {
            case NIST_P256 -> EncryptedDataEncryptionKey.eciesNistP256(p256);
            case BRAINPOOL_P256R1 -> EncryptedDataEncryptionKey.eciesBrainpoolP256r1(p256);
            case BRAINPOOL_P384R1 -> throw new PkiException(ErrorCode.WRONG_CURVE, "no ECIES on brainpoolP384r1");
        };
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    // ---- decoding -----------------------------------------------------------------------------

    /**
     * The structures below have been checked by the OER parser, so a BouncyCastle exception while
     * reading them means a structure we cannot interpret.
     */
    private static PkiException malformed(RuntimeException e) {
        return new PkiException(ErrorCode.MALFORMED_ENCODING, "unreadable encrypted data: " + e.getMessage(), e);
    }

    /** Canonical COER decoding down to the EncryptedData. */
    private static EncryptedData parse(byte[] encoded) {
        Ieee1609Dot2Data data = Ieee1609Dot2Data.getInstance(Coer.decode(encoded, Coer.Type.DATA));
        if (data.getProtocolVersion().getValue().intValue() != PROTOCOL_VERSION) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "protocolVersion " + data.getProtocolVersion().getValue());
        }
        if (data.getContent().getChoice() != Ieee1609Dot2Content.encryptedData) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "content is not encryptedData (choice "
                    + data.getContent().getChoice() + ")");
        }
        return EncryptedData.getInstance(data.getContent().getIeee1609Dot2Content());
    }

    private static PKRecipientInfo findCertRecipient(SequenceOfRecipientInfo recipients, HashedId8 certificateId) {
        for (RecipientInfo r : recipients.getRecipientInfos()) {
            if (r.getChoice() == RecipientInfo.certRecipInfo) {
                PKRecipientInfo pk = PKRecipientInfo.getInstance(r.getRecipientInfo());
                if (certificateId.equals(hashedId8(pk.getRecipientId()))) {
                    return pk;
                }
            }
        }
        throw new PkiException(ErrorCode.NOT_ENCRYPTED_FOR_US, "no certRecipInfo for certificate " + certificateId);
    }

    private static HashedId8 hashedId8(ASN1Encodable id) {
        return HashedId8.of(ASN1OctetString.getInstance(id).getOctets());
    }

    private static EciesEncryptedKey eciesKey(EncryptedDataEncryptionKey encKey) {
        EtsiCurve curve = switch (encKey.getChoice()) {
            case EncryptedDataEncryptionKey.eciesNistP256 -> EtsiCurve.NIST_P256;
            case EncryptedDataEncryptionKey.eciesBrainpoolP256r1 -> EtsiCurve.BRAINPOOL_P256R1;
            default -> throw new PkiException(ErrorCode.UNSUPPORTED_ALGORITHM,
                    "EncryptedDataEncryptionKey choice " + encKey.getChoice() + " not supported");
        };
        EciesP256EncryptedKey key = EciesP256EncryptedKey.getInstance(encKey.getEncryptedDataEncryptionKey());
        EtsiPublicKey v;
        try {
            v = OerKeys.point(curve, EccP256CurvePoint.getInstance(key.getV()));
        } catch (PkiException e) {
            throw new PkiException(ErrorCode.DECRYPTION_FAILED, "ephemeral key V is not a point on " + curve, e);
        }
        return new EciesEncryptedKey(v, key.getC().getOctets(), key.getT().getOctets());
    }

    private static byte[] decryptCiphertext(SymmetricCiphertext ciphertext, byte[] aesKey) {
        if (ciphertext.getChoice() != SymmetricCiphertext.aes128ccm) {
            throw new PkiException(ErrorCode.UNSUPPORTED_ALGORITHM, "SymmetricCiphertext choice " + ciphertext.getChoice());
        }
        AesCcmCiphertext ccm = AesCcmCiphertext.getInstance(ciphertext.getSymmetricCiphertext());
        return AesCcm.decrypt(aesKey, ccm.getNonce().getOctets(), ccm.getCcmCiphertext().getContent());
    }
}
