package eu.vpki.benchmarks;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import org.bouncycastle.asn1.x9.ECNamedCurveTable;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.generators.ECKeyPairGenerator;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECKeyGenerationParameters;
import org.bouncycastle.crypto.params.ECNamedDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.util.BigIntegers;

import java.security.SecureRandom;

/** Raw BouncyCastle lightweight-API objects for the baselines: no vpki code involved. */
final class RawBc {
    private RawBc() {
    }

    /**
     * The curve as BouncyCastle's own JCA provider sets it up: the special-form implementation of
     * {@link CustomNamedCurves} where BouncyCastle has one (secp256r1; none for the brainpool
     * curves), else the generic one of {@link ECNamedCurveTable}.
     */
    static ECDomainParameters domain(EtsiCurve curve) {
        X9ECParameters x9 = CustomNamedCurves.getByName(curve.curveName());
        if (x9 == null) {
            x9 = ECNamedCurveTable.getByName(curve.curveName());
        }
        return new ECNamedDomainParameters(ECNamedCurveTable.getOID(curve.curveName()), x9);
    }

    static AsymmetricCipherKeyPair keyPair(ECDomainParameters domain, SecureRandom random) {
        ECKeyPairGenerator gen = new ECKeyPairGenerator();
        gen.init(new ECKeyGenerationParameters(domain, random));
        return gen.generateKeyPair();
    }

    static ECPrivateKeyParameters priv(AsymmetricCipherKeyPair kp) {
        return (ECPrivateKeyParameters) kp.getPrivate();
    }

    static ECPublicKeyParameters pub(AsymmetricCipherKeyPair kp) {
        return (ECPublicKeyParameters) kp.getPublic();
    }

    static byte[] scalar(AsymmetricCipherKeyPair kp, int fieldBytes) {
        return BigIntegers.asUnsignedByteArray(fieldBytes, priv(kp).getD());
    }
}
