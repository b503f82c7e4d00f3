package eu.vpki.common.etsi.crypto;

import java.util.Objects;

/** {@link EtsiKeyAgreement} over an in-memory key pair, in the backends {@link Ecies} chooses per curve. */
public final class SoftwareKeyAgreement implements EtsiKeyAgreement {
    private final EtsiKeyPair keyPair;

    public SoftwareKeyAgreement(EtsiKeyPair keyPair) {
        this.keyPair = Objects.requireNonNull(keyPair, "keyPair");
    }

    @Override
    public EtsiPublicKey publicKey() {
        return keyPair.publicKey();
    }

    @Override
    public byte[] sharedX(EtsiPublicKey theirs) {
        return Ecies.sharedSecret(keyPair, theirs);
    }
}
