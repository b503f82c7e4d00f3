package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.PkiException;
import eu.vpki.common.replication.OriginCredentials;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;

/**
 * A replica's {@link OriginCredentials} from its replication key store and trust store
 * (docs/design-replication-security.md): it signs with the nistP256 key of its own replica certificate
 * ({@code r || s}, 64 bytes, over SHA-256), and accepts a signature when the certificate that comes with it
 * was issued by a trusted deployment CA to the command's replica, was valid at the command's origin time,
 * and its key verifies the signature; and it agrees on a shared secret (static ECDH) with a trusted replica
 * certificate's key, from which the two replicas derive the keys of their command tags. Thread-safe.
 */
public final class DeploymentCredentials implements OriginCredentials {
    private static final int SIGNATURE_BYTES = 64;

    private final ReplicaKey key;
    private final DeploymentTrust trust;

    private DeploymentCredentials(ReplicaKey key, DeploymentTrust trust) {
        this.key = key;
        this.trust = trust;
    }

    /**
     * Reads both PKCS#12 stores (as {@link DeploymentCa} writes them).
     *
     * @throws PkiException {@link eu.vpki.common.error.ErrorCode#KEY_STORE_FAILURE} if a store cannot be read, or
     *                      the trust check's error for a key store whose certificate no trusted CA issued
     */
    public static DeploymentCredentials read(Path keyStore, char[] keyStorePassword, Path trustStore, char[] trustStorePassword,
                                             SecureRandom random) {
        DeploymentTrust trust = DeploymentTrust.read(trustStore, trustStorePassword);
        return new DeploymentCredentials(ReplicaKey.read(keyStore, keyStorePassword, trust, random), trust);
    }

    @Override
    public String replicaId() {
        return key.certificate().replicaId();
    }

    @Override
    public byte[] certificate() {
        return key.certificate().encoded();
    }

    @Override
    public byte[] sign(byte[] message) {
        EcdsaSignature signature = key.sign(message);
        byte[] rs = new byte[SIGNATURE_BYTES];
        System.arraycopy(signature.r(), 0, rs, 0, 32);
        System.arraycopy(signature.s(), 0, rs, 32, 32);
        return rs;
    }

    @Override
    public boolean validAt(long originMillis) {
        return key.certificate().validAt(Instant.ofEpochMilli(originMillis));
    }

    @Override
    public String refusal(String replicaId, long originMillis, byte[] certificate) {
        ReplicaCertificate signer;
        try {
            signer = trust.identify(certificate);
        } catch (PkiException e) {
            return "its certificate is refused: " + e.getMessage();
        }
        return refusal(signer, replicaId, originMillis);
    }

    private static String refusal(ReplicaCertificate signer, String replicaId, long originMillis) {
        if (!signer.replicaId().equals(replicaId)) {
            return "signed with the certificate of replica " + signer.replicaId() + ", not of its origin's replica " + replicaId;
        }
        Instant at = Instant.ofEpochMilli(originMillis);
        if (!signer.validAt(at)) {
            return "the certificate of " + signer.replicaId() + " was not valid at the command's origin time " + at;
        }
        return null;
    }

    @Override
    public byte[] agree(byte[] certificate) {
        try {
            return key.agree(trust.identify(certificate));
        } catch (PkiException e) {
            return null;
        }
    }

    @Override
    public String refusal(String replicaId, long originMillis, byte[] certificate, byte[] message, byte[] signature) {
        ReplicaCertificate signer;
        try {
            signer = trust.identify(certificate);
        } catch (PkiException e) {
            return "its certificate is refused: " + e.getMessage();
        }
        String refused = refusal(signer, replicaId, originMillis);
        if (refused != null) {
            return refused;
        }
        if (signature.length != SIGNATURE_BYTES) {
            return "a signature of " + signature.length + " bytes (r || s has " + SIGNATURE_BYTES + ")";
        }
        EcdsaSignature ecdsa = new EcdsaSignature(EtsiCurve.NIST_P256, Arrays.copyOfRange(signature, 0, 32),
                Arrays.copyOfRange(signature, 32, SIGNATURE_BYTES));
        if (!ReplicaKey.verify(signer, message, ecdsa)) {
            return "its signature by " + signer.replicaId() + " does not verify";
        }
        return null;
    }
}
