package eu.vpki.common.etsi.crypto.pkcs11;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiKeyAgreement;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import org.bouncycastle.jce.ECNamedCurveTable;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.jce.spec.ECNamedCurveParameterSpec;
import org.bouncycastle.jce.spec.ECPublicKeySpec;

import javax.crypto.KeyAgreement;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.PublicKey;

/**
 * {@code CKM_ECDH1_DERIVE} (SunPKCS11's {@code ECDH}) with the encryption key in the token; the
 * derived secret Z is read back as a session object for the ECIES KDF (docs/design-hsm.md). The
 * sender's ephemeral key reaches the token as a JCA key made by BouncyCastle (SunEC has no brainpool
 * since JDK 16).
 */
final class Pkcs11KeyAgreement implements EtsiKeyAgreement {
    private static final Provider BC = new BouncyCastleProvider();

    private final Pkcs11Token token;
    private final String label;
    private final EtsiPublicKey publicKey;

    Pkcs11KeyAgreement(Pkcs11Token token, String label, EtsiPublicKey publicKey) {
        this.token = token;
        this.label = label;
        this.publicKey = publicKey;
    }

    @Override
    public EtsiPublicKey publicKey() {
        return publicKey;
    }

    @Override
    public byte[] sharedX(EtsiPublicKey theirs) {
        if (theirs.curve() != publicKey.curve()) {
            throw new PkiException(ErrorCode.WRONG_CURVE, "ECDH between " + publicKey.curve() + " and " + theirs.curve());
        }
        PublicKey peer = jcaKey(theirs);
        byte[] z = token.use(label, key -> {
            KeyAgreement agreement = KeyAgreement.getInstance("ECDH", token.provider());
            agreement.init(key.privateKey());
            agreement.doPhase(peer, true);
            return agreement.generateSecret();
        });
        int length = publicKey.curve().fieldBytes();
        if (z.length == length) {
            return z;
        }
        if (z.length > length) {
            String reason = "key '" + label + "' derived a " + z.length + "-byte secret, expected " + length;
            token.fault(reason);
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, reason);
        }
        byte[] padded = new byte[length]; // a module that strips leading zero bytes
        System.arraycopy(z, 0, padded, length - z.length, z.length);
        java.util.Arrays.fill(z, (byte) 0);
        return padded;
    }

    private static PublicKey jcaKey(EtsiPublicKey key) {
        try {
            ECNamedCurveParameterSpec spec = ECNamedCurveTable.getParameterSpec(key.curve().curveName());
            return KeyFactory.getInstance("EC", BC)
                    .generatePublic(new ECPublicKeySpec(spec.getCurve().decodePoint(key.uncompressed()), spec));
        } catch (GeneralSecurityException e) {
            throw new PkiException(ErrorCode.INVALID_KEY, "cannot pass " + key + " to the token: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "PKCS#11 key agreement '" + label + "' (" + publicKey.curve().curveName() + ") in " + token;
    }
}
