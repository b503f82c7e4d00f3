package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.util.Collections;

/**
 * A replica's own key and certificate on the replication channel, from its PKCS#12 key store (as
 * {@link DeploymentCa#issueKeyStore} writes it): the same key authenticates the replica in TLS and
 * signs its replicated commands (docs/design-replication-security.md). Thread-safe.
 */
public final class ReplicaKey {
    private final ReplicaCertificate certificate;
    private final EtsiKeyPair pair;
    private final EtsiSigner signer;

    private ReplicaKey(ReplicaCertificate certificate, EtsiKeyPair pair, EtsiSigner signer) {
        this.certificate = certificate;
        this.pair = pair;
        this.signer = signer;
    }

    /**
     * Reads the key store's one key entry; its certificate must have been issued by a CA of {@code trust}.
     *
     * @throws PkiException {@link ErrorCode#KEY_STORE_FAILURE} if the store cannot be read or holds no
     *                      nistP256 key entry, or the trust check's error
     */
    public static ReplicaKey read(Path keyStore, char[] password, DeploymentTrust trust, SecureRandom random) {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            for (String alias : Collections.list(store.aliases())) {
                if (!store.isKeyEntry(alias)) {
                    continue;
                }
                Key key = store.getKey(alias, password);
                Certificate[] chain = store.getCertificateChain(alias);
                if (!(key instanceof ECPrivateKey ec) || chain == null || chain.length == 0
                        || !(chain[0] instanceof X509Certificate own)) {
                    continue;
                }
                ReplicaCertificate certificate = trust.identify(own.getEncoded());
                EtsiKeyPair pair = EtsiKeyPair.fromPrivateScalar(EtsiCurve.NIST_P256, unsigned(ec.getS()));
                if (!pair.publicKey().equals(certificate.key())) {
                    throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "the key in " + keyStore + " does not match its certificate");
                }
                return new ReplicaKey(certificate, pair, new SoftwareSigner(pair, random));
            }
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, keyStore + " holds no nistP256 key with a certificate");
        } catch (IOException | GeneralSecurityException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "cannot read key store " + keyStore + ": " + e.getMessage(), e);
        }
    }

    public ReplicaCertificate certificate() {
        return certificate;
    }

    /** Signs the SHA-256 digest of {@code message}. */
    public EcdsaSignature sign(byte[] message) {
        return signer.signDigest(HashAlgorithm.SHA256.digest(message));
    }

    /**
     * The x coordinate of this replica's private key times {@code peer}'s public key (static ECDH, constant time for
     * the private scalar: AWS-LC, else BouncyCastle as in {@link Ecies}): the secret this replica shares with that
     * replica only, from which both derive the keys of their command tags (docs/design-replication-security.md,
     * "Per-receiver tags"). {@code peer} must be a certificate a trusted CA issued ({@link DeploymentTrust#identify}).
     */
    public byte[] agree(ReplicaCertificate peer) {
        return Ecies.sharedSecret(pair, peer.key());
    }

    /** Whether {@code signature} is {@code signer}'s over {@code message} (SHA-256). */
    public static boolean verify(ReplicaCertificate signer, byte[] message, EcdsaSignature signature) {
        return EcdsaVerification.verify(signer.key(), HashAlgorithm.SHA256.digest(message), signature);
    }

    private static byte[] unsigned(BigInteger value) {
        byte[] bytes = value.toByteArray();
        return bytes.length > 1 && bytes[0] == 0 ? java.util.Arrays.copyOfRange(bytes, 1, bytes.length) : bytes;
    }
}
