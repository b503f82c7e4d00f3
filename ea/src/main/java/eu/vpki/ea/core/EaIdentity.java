package eu.vpki.ea.core;

import eu.vpki.common.etsi.crypto.EtsiKeyAgreement;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareKeyAgreement;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;

import java.util.Objects;

/**
 * The EA's certificate with its signing key and its encryption key (in memory or in a token). Every EA replica holds the
 * same certificate and keys (copies of one key store), so any replica can answer any request.
 */
public record EaIdentity(EtsiCertificate certificate, EtsiSigner signer, EtsiKeyAgreement encryptionKey) {
    public EaIdentity {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(signer, "signer");
        Objects.requireNonNull(encryptionKey, "encryptionKey");
        if (!certificate.verificationKey().equals(signer.publicKey())) {
            throw new IllegalArgumentException("the signing key does not match the EA certificate " + certificate);
        }
        if (!certificate.encryptionKey().map(encryptionKey.publicKey()::equals).orElse(false)) {
            throw new IllegalArgumentException("the encryption key does not match the EA certificate " + certificate);
        }
    }

    /** An identity whose encryption key pair is held in memory. */
    public EaIdentity(EtsiCertificate certificate, EtsiSigner signer, EtsiKeyPair encryptionKey) {
        this(certificate, signer, encryptionKey == null ? null : (EtsiKeyAgreement) new SoftwareKeyAgreement(encryptionKey));
    }

    public DecryptionIdentity decryptionIdentity() {
        return new DecryptionIdentity(encryptionKey, certificate.hashedId8(), certificate.sha256());
    }
}
