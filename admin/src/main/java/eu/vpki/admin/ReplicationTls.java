package eu.vpki.admin;

import eu.vpki.common.etsi.crypto.DeploymentCa;
import eu.vpki.common.etsi.crypto.DeploymentTrust;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;

/**
 * The replication channel's credentials in one directory (docs/design-replication-security.md): the
 * deployment CA with its key ({@code deployment-ca.p12}), the trust store every replica uses
 * ({@code trust.p12}), one PKCS#12 key store per EA and Operator replica ({@code <replica id>.p12}: its
 * nistP256 key, certificate {@code CN=<replica id>}) and one password for all of them ({@code password}),
 * so that no password appears on a command line. The directory is 0700, every file 0600.
 *
 * <p>{@link #write} keeps what exists (the CA, its password, every key store) and issues only what is
 * missing, so it serves the first start and the rotations of docs/security.md: delete a replica's key store
 * and run it again for a new certificate; run it on a new directory with {@code alsoTrusted} = the old directory
 * for a new CA whose trust store holds both CAs and whose stores keep the old password (a replica reads its key
 * store and its trust store with one password, and during the rotation it holds an old one and a new one). The local launcher writes a new directory per cluster start,
 * {@code vpki-admin bootstrap replication} one for compose and for a deployment's key ceremony.
 *
 * @param directory where the files are
 */
public record ReplicationTls(Path directory) {
    static final String CA_FILE = "deployment-ca.p12";
    static final String TRUST_STORE = "trust.p12";
    static final String PASSWORD = "password";

    /**
     * Keeps or generates the CA and the password, issues a key store to each of {@code replicaIds} that has
     * none, and writes the trust store: this CA and the CA certificates of the trust stores in {@code alsoTrusted}
     * (directories written by this method: the CA being rotated; a new directory takes the first one's password).
     *
     * @param caValidity of a new CA; {@code validity} of each new replica certificate (both from an hour ago,
     *                   against clock skew between the hosts)
     */
    public static ReplicationTls write(Path directory, List<String> replicaIds, Duration caValidity, Duration validity,
                                       List<Path> alsoTrusted, SecureRandom random, Consumer<String> log) {
        for (String id : replicaIds) {
            if (!id.matches(DeploymentCa.REPLICA_ID)) {
                throw new IllegalArgumentException("not a replica id: " + id);
            }
        }
        ReplicationTls tls = new ReplicationTls(directory);
        try {
            Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
            Instant from = Instant.now().minus(Duration.ofHours(1));
            if (!Files.isRegularFile(tls.passwordFile()) && !alsoTrusted.isEmpty()) {
                Files.writeString(ownerOnlyFile(tls.passwordFile()), new String(new ReplicationTls(alsoTrusted.get(0)).password()) + "\n",
                        StandardCharsets.UTF_8);
            } else if (!Files.isRegularFile(tls.passwordFile())) {
                byte[] secret = new byte[24];
                random.nextBytes(secret);
                Files.writeString(ownerOnlyFile(tls.passwordFile()), Base64.getUrlEncoder().withoutPadding().encodeToString(secret) + "\n",
                        StandardCharsets.UTF_8);
            }
            char[] password = tls.password();
            Path caFile = directory.resolve(CA_FILE);
            DeploymentCa ca;
            if (Files.isRegularFile(caFile)) {
                ca = DeploymentCa.load(caFile, password);
                log.accept("deployment CA kept: " + caFile);
            } else {
                ca = DeploymentCa.generate("vpki deployment CA", from, caValidity, random);
                ca.save(ownerOnlyFile(caFile), password);
                log.accept("deployment CA written: " + caFile + " (keep it offline once the replicas have their key stores)");
            }
            List<X509Certificate> others = new ArrayList<>();
            for (Path other : alsoTrusted) {
                ReplicationTls old = new ReplicationTls(other);
                others.addAll(DeploymentTrust.read(old.trustStore(), old.password()).authorities());
            }
            ca.writeTrustStore(ownerOnlyFile(tls.trustStore()), password, others);
            for (String id : replicaIds) {
                if (Files.isRegularFile(tls.keyStore(id))) {
                    log.accept(id + ": key store kept");
                } else {
                    ca.issueKeyStore(id, from, validity, random, ownerOnlyFile(tls.keyStore(id)), password);
                    log.accept(id + ": key store written: " + tls.keyStore(id));
                }
            }
            return tls;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the replication credentials in " + directory, e);
        }
    }

    public Path trustStore() {
        return directory.resolve(TRUST_STORE);
    }

    public Path keyStore(String replicaId) {
        return directory.resolve(replicaId + ".p12");
    }

    /** The file whose first line is the password of the CA, the trust store and the key stores. */
    public Path passwordFile() {
        return directory.resolve(PASSWORD);
    }

    private char[] password() throws IOException {
        return Files.readAllLines(passwordFile(), StandardCharsets.UTF_8).get(0).strip().toCharArray();
    }

    /** An empty file readable by this user only, for a store to be written into (never world-readable, not even briefly). */
    private static Path ownerOnlyFile(Path file) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        return file;
    }
}
