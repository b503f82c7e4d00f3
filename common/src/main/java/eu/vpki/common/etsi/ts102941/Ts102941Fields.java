package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.HashAlgorithm;
import eu.vpki.common.etsi.oer.Coer;
import eu.vpki.common.etsi.oer.OerKeys;
import eu.vpki.common.etsi.ts103097.CertificateFields;
import org.bouncycastle.oer.its.etsi102941.basetypes.CertificateFormat;
import org.bouncycastle.oer.its.etsi102941.basetypes.CertificateSubjectAttributes;
import org.bouncycastle.oer.its.etsi102941.basetypes.PublicKeys;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SubjectAssurance;

import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

import java.util.Arrays;

/** Conversions of the TS 102 941 base types shared by the request and response messages. */
final class Ts102941Fields {
    /** certificateFormat ts103097v131 (1): the only format defined. */
    static final CertificateFormat FORMAT_TS103097 = new CertificateFormat(1);

    private Ts102941Fields() {
    }

    static CertificateSubjectAttributes toOer(SubjectAttributes a) {
        return new CertificateSubjectAttributes(null,
                a.validity() == null ? null : CertificateFields.toOer(a.validity()),
                CertificateFields.toOer(a.region()),
                a.assuranceLevel() == null ? null : new SubjectAssurance(new byte[]{(byte) a.assuranceLevel().intValue()}),
                a.appPermissions().isEmpty() ? null : CertificateFields.toOer(a.appPermissions()),
                null);
    }

    static SubjectAttributes fromOer(CertificateSubjectAttributes a) {
        if (a == null) {
            return new SubjectAttributes(null, null, null, null);
        }
        if (a.getCertIssuePermissions() != null) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "requested attributes must not carry certIssuePermissions");
        }
        return new SubjectAttributes(
                a.getValidityPeriod() == null ? null : CertificateFields.fromOer(a.getValidityPeriod()),
                CertificateFields.fromOer(a.getRegion()),
                a.getAssuranceLevel() == null ? null : a.getAssuranceLevel().getOctets()[0] & 0xFF,
                CertificateFields.fromOer(a.getAppPermissions()));
    }

    static void requireFormat(CertificateFormat f) {
        if (f.getFormat() != 1) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "certificateFormat " + f.getFormat() + " is not supported");
        }
    }

    static PublicKeys publicKeys(EtsiPublicKey verification, EtsiPublicKey encryption) {
        return new PublicKeys(OerKeys.verificationKey(verification), encryption == null ? null : OerKeys.encryptionKey(encryption));
    }

    static EtsiPublicKey verificationKey(PublicKeys keys) {
        return OerKeys.fromVerificationKey(keys.getVerificationKey());
    }

    static EtsiPublicKey encryptionKey(PublicKeys keys) {
        return keys.getEncryptionKey() == null ? null : OerKeys.fromEncryptionKey(keys.getEncryptionKey());
    }

    /** requestHash: the first 16 bytes of SHA-256 over the request exactly as posted. */
    static byte[] requestHash(byte[] body) {
        return Arrays.copyOf(HashAlgorithm.SHA256.digest(body), 16);
    }

    /**
     * keyTag of an authorization request: the first 16 bytes of HMAC-SHA256(hmacKey, COER of the
     * requested verification key followed by the COER of the requested encryption key, if any).
     */
    static byte[] keyTag(byte[] hmacKey, EtsiPublicKey verification, EtsiPublicKey encryption) {
        HMac mac = new HMac(new SHA256Digest());
        mac.init(new KeyParameter(hmacKey));
        byte[] input = keyTagInput(verification, encryption);
        mac.update(input, 0, input.length);
        byte[] out = new byte[32];
        mac.doFinal(out, 0);
        return Arrays.copyOf(out, 16);
    }

    /** The COER encoding of the requested keys, as the keyTag HMAC covers them. */
    static byte[] keyTagInput(EtsiPublicKey verification, EtsiPublicKey encryption) {
        byte[] v = OerKeys.encodeVerificationKey(verification);
        if (encryption == null) {
            return v;
        }
        byte[] e = Coer.encode(OerKeys.encryptionKey(encryption), Coer.Type.PUBLIC_ENCRYPTION_KEY);
        byte[] out = Arrays.copyOf(v, v.length + e.length);
        System.arraycopy(e, 0, out, v.length, e.length);
        return out;
    }
}
