package eu.vpki.aa.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiKeyAgreement;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareKeyAgreement;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;

/**
 * Who this AA is: its certificate (issued by the RCA), the signer of its verification key and the
 * identity it decrypts requests with. Every AA process serving the same certificate holds the same
 * keys; nothing else is shared between them.
 */
public record AaIdentity(EtsiCertificate certificate, EtsiSigner signer, DecryptionIdentity decryption) {

    /**
     * Builds the identity and checks the keys belong to the certificate (a mismatch is a
     * configuration error and fails the start-up).
     *
     * @throws PkiException {@link ErrorCode#INVALID_ARGUMENT} when a key does not match the certificate
     */
    public static AaIdentity of(EtsiCertificate certificate, EtsiSigner signer, EtsiKeyPair encryptionKey) {
        return of(certificate, signer, new SoftwareKeyAgreement(encryptionKey));
    }

    /** As above, the encryption key in memory or in a token. */
    public static AaIdentity of(EtsiCertificate certificate, EtsiSigner signer, EtsiKeyAgreement encryptionKey) {
        if (!certificate.isCa()) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, certificate + " has no certIssuePermissions: not an AA certificate");
        }
        if (!certificate.verificationKey().equals(signer.publicKey())) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "the signing key does not match the verification key of " + certificate);
        }
        if (certificate.encryptionKey().filter(k -> k.equals(encryptionKey.publicKey())).isEmpty()) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "the encryption key does not match the encryption key of " + certificate);
        }
        return new AaIdentity(certificate, signer, new DecryptionIdentity(encryptionKey, certificate.hashedId8(), certificate.sha256()));
    }
}
