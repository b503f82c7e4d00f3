package eu.vpki.common.etsi.crypto;

import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The deployment CA of the replication channel: an {@link X509Ca} (nistP256, ECDSA-SHA256) private to one
 * deployment, which issues each replica its own TLS certificate (subject {@code CN=<replica id>},
 * client and server authentication). The replicas trust this CA only (their trust store), so a
 * member without a certificate from it cannot connect to any replica (docs/design-replication-security.md).
 * Not part of the ETSI PKI (it lives here because BouncyCastle does): these certificates never leave
 * the replication channel.
 *
 * <p>The local cluster generates one per run directory; a deployment keeps the CA's key offline and
 * hands each host its replica key store and the trust store (on AWS from Secrets Manager).
 */
public final class DeploymentCa {
    private static final String CA_ALIAS = "deployment-ca";
    private static final String REPLICA_ALIAS = "replica";
    /** What a replica id (and so a replica certificate's CN) may be: as {@code vpki.replication.replica-id}. */
    public static final String REPLICA_ID = "[A-Za-z0-9._:-]{1,64}";

    private final PrivateKey key;
    private final X509Certificate certificate;

    private DeploymentCa(PrivateKey key, X509Certificate certificate) {
        this.key = key;
        this.certificate = certificate;
    }

    /** A new CA named {@code CN=<name>}, valid from {@code now} for {@code validity}. */
    public static DeploymentCa generate(String name, Instant now, Duration validity, SecureRandom random) {
        X509Ca ca = X509Ca.generate(name, now, validity, random);
        return new DeploymentCa(ca.key(), ca.certificate());
    }

    /** Reads a CA written by {@link #save}. */
    public static DeploymentCa load(Path file, char[] password) {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            return new DeploymentCa((PrivateKey) store.getKey(CA_ALIAS, password), (X509Certificate) store.getCertificate(CA_ALIAS));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the deployment CA " + file, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the deployment CA " + file, e);
        }
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** Writes the CA with its private key (PKCS#12): keep it where no replica runs. */
    public void save(Path file, char[] password) {
        KeyStore store = emptyStore();
        try {
            store.setKeyEntry(CA_ALIAS, key, password, new Certificate[]{certificate});
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        write(store, file, password);
    }

    /** Writes the trust store every replica uses: the CA certificate only (PKCS#12). */
    public void writeTrustStore(Path file, char[] password) {
        writeTrustStore(file, password, List.of());
    }

    /**
     * Writes a trust store holding this CA's certificate and {@code alsoTrusted} (PKCS#12): while the
     * deployment CA is rotated every replica trusts the old and the new CA (docs/security.md).
     */
    public void writeTrustStore(Path file, char[] password, List<X509Certificate> alsoTrusted) {
        KeyStore store = emptyStore();
        try {
            store.setCertificateEntry(CA_ALIAS, certificate);
            int n = 1;
            for (X509Certificate other : alsoTrusted) {
                if (!other.equals(certificate)) {
                    store.setCertificateEntry(CA_ALIAS + "-" + ++n, other);
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        write(store, file, password);
    }

    /**
     * Issues replica {@code replicaId} a new key and certificate ({@code CN=<replicaId>}, valid from
     * {@code now} for {@code validity}) and writes them with the CA certificate as chain (PKCS#12).
     */
    public X509Certificate issueKeyStore(String replicaId, Instant now, Duration validity, SecureRandom random, Path file,
                                         char[] password) {
        if (replicaId == null || !replicaId.matches(REPLICA_ID)) {
            throw new IllegalArgumentException("not a replica id: " + replicaId);
        }
        X509Ca.Issued issued = new X509Ca(key, certificate).issue(replicaId, List.of(X509Ca.extension(Extension.extendedKeyUsage,
                new ExtendedKeyUsage(new KeyPurposeId[]{KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))), now, validity,
                random);
        KeyStore store = emptyStore();
        try {
            store.setKeyEntry(REPLICA_ALIAS, issued.keyPair().getPrivate(), password, new Certificate[]{issued.certificate(), certificate});
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot issue the replication certificate of " + replicaId, e);
        }
        write(store, file, password);
        return issued.certificate();
    }

    private static KeyStore emptyStore() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void write(KeyStore store, Path file, char[] password) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            try (OutputStream out = Files.newOutputStream(file)) {
                store.store(out, password);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot write " + file, e);
        }
    }
}
