package eu.vpki.common.etsi.crypto.pkcs11;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EcdsaSignature;
import eu.vpki.common.etsi.crypto.EcdsaVerification;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.util.BigIntegers;

import java.math.BigInteger;
import java.security.Signature;

/**
 * Raw {@code CKM_ECDSA} (SunPKCS11's {@code NONEwithECDSA}) over the IEEE 1609.2 digest the caller
 * computed; the token's DER answer becomes r and s, and the signature is verified against the key's
 * public key before it is returned: a signature that does not verify marks the token DOWN for good and
 * fails with {@link ErrorCode#KEY_STORE_FAILURE}, so no certificate is issued with it.
 */
final class Pkcs11Signer implements EtsiSigner {
    private final Pkcs11Token token;
    private final String label;
    private final EtsiPublicKey publicKey;

    /** {@code publicKey} is the key the signatures must verify with (the label's own, except in tests of the check). */
    Pkcs11Signer(Pkcs11Token token, String label, EtsiPublicKey publicKey) {
        this.token = token;
        this.label = label;
        this.publicKey = publicKey;
    }

    @Override
    public EtsiPublicKey publicKey() {
        return publicKey;
    }

    @Override
    public EcdsaSignature signDigest(byte[] digest) {
        EtsiCurve curve = publicKey.curve();
        if (digest.length != curve.hash().length()) {
            throw new IllegalArgumentException("digest must be " + curve.hash().length() + " bytes for " + curve);
        }
        byte[] der = token.use(label, key -> {
            Signature signature = Signature.getInstance("NONEwithECDSA", token.provider());
            signature.initSign(key.privateKey());
            signature.update(digest);
            return signature.sign();
        });
        EcdsaSignature signature;
        try {
            signature = fromDer(curve, der);
        } catch (RuntimeException e) {
            String reason = "key '" + label + "' returned a malformed ECDSA signature";
            token.fault(reason);
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, reason, e);
        }
        if (!EcdsaVerification.verify(publicKey, digest, signature)) {
            String reason = "key '" + label + "' returned an ECDSA signature that does not verify";
            token.fault(reason);
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, reason);
        }
        return signature;
    }

    /** r and s from the DER {@code SEQUENCE { INTEGER r, INTEGER s }}, each {@link EtsiCurve#fieldBytes()} long. */
    static EcdsaSignature fromDer(EtsiCurve curve, byte[] der) {
        ASN1Sequence seq = ASN1Sequence.getInstance(der);
        if (seq.size() != 2) {
            throw new IllegalArgumentException("ECDSA signature must hold two integers");
        }
        BigInteger r = ASN1Integer.getInstance(seq.getObjectAt(0)).getPositiveValue();
        BigInteger s = ASN1Integer.getInstance(seq.getObjectAt(1)).getPositiveValue();
        return new EcdsaSignature(curve, BigIntegers.asUnsignedByteArray(curve.fieldBytes(), r),
                BigIntegers.asUnsignedByteArray(curve.fieldBytes(), s));
    }

    @Override
    public String toString() {
        return "PKCS#11 signer '" + label + "' (" + publicKey.curve().curveName() + ") in " + token;
    }
}
