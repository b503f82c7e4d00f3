package eu.vpki.shell.keys;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyAgreement;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;

import java.nio.file.Path;

/**
 * An authority's certificate (read from its file) and its signing and encryption keys (from the key
 * source, PKCS#12 file or PKCS#11 token, by alias or label), checked to match the certificate. Every
 * failure names the configuration key to fix, so a bad configuration fails the start-up with a message
 * an operator can act on.
 */
public record AuthorityKeys(EtsiCertificate certificate, EtsiSigner signing, EtsiKeyAgreement encryption) {

    /**
     * Loads the identity configured under {@code prefix} (e.g. {@code vpki.ea}: keys
     * {@code <prefix>.certificate-file}, {@code <prefix>.signing-key-alias}, {@code <prefix>.encryption-key-alias}).
     */
    public static AuthorityKeys load(String prefix, Path certificateFile, String signingAlias, String encryptionAlias,
                                     AuthorityKeySource keys) {
        EtsiCertificate certificate = EtsiCertificate.decode(ConfigFiles.read(certificateFile, prefix + ".certificate-file"));
        EtsiSigner signing = keys.signer(signingAlias, prefix + ".signing-key-alias", certificate.verificationKey().curve());
        EtsiCurve encryptionCurve = certificate.encryptionKey().map(k -> k.curve()).orElse(null);
        EtsiKeyAgreement encryption = keys.keyAgreement(encryptionAlias, prefix + ".encryption-key-alias", encryptionCurve);
        if (!certificate.verificationKey().equals(signing.publicKey())) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, prefix + ".signing-key-alias '" + signingAlias
                    + "' is not the key of the certificate in " + prefix + ".certificate-file " + certificateFile);
        }
        if (!certificate.encryptionKey().map(encryption.publicKey()::equals).orElse(false)) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, prefix + ".encryption-key-alias '" + encryptionAlias
                    + "' is not the encryption key of the certificate in " + prefix + ".certificate-file " + certificateFile);
        }
        return new AuthorityKeys(certificate, signing, encryption);
    }
}
