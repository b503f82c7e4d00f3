package eu.vpki.shell.replication;

import eu.vpki.shell.management.ManagedCertificate;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Collections;

/** The replica's own TLS certificate (the key entry of {@code vpki.replication.tls-key-store}) as a {@link ManagedCertificate}. */
final class ReplicationTlsCertificate {
    /** The name of its gauge tag and its entry in {@code /actuator/replication}. */
    static final String NAME = "replication-tls";

    private ReplicationTlsCertificate() {
    }

    static ManagedCertificate read(Path keyStore, char[] password) {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias) && store.getCertificate(alias) instanceof X509Certificate certificate) {
                    return new ManagedCertificate(NAME, certificate.getSubjectX500Principal().getName(),
                            certificate.getNotAfter().toInstant());
                }
            }
            throw new IllegalStateException("vpki.replication.tls-key-store " + keyStore + " holds no key with a certificate");
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot read vpki.replication.tls-key-store " + keyStore + ": " + e.getMessage(), e);
        }
    }
}
