package eu.vpki.common.etsi.crypto;

import java.time.Instant;

/**
 * What a replica certificate of the deployment CA proves ({@link DeploymentTrust#identify}): the replica
 * id it was issued to (its subject's CN), the nistP256 key that signs that replica's replicated
 * commands, and its validity.
 *
 * @param encoded the certificate, DER
 */
public record ReplicaCertificate(String replicaId, EtsiPublicKey key, Instant notBefore, Instant notAfter, byte[] encoded) {

    public ReplicaCertificate {
        encoded = encoded.clone();
    }

    @Override
    public byte[] encoded() {
        return encoded.clone();
    }

    /** Whether {@code instant} lies within the validity (both ends included). */
    public boolean validAt(Instant instant) {
        return !instant.isBefore(notBefore) && !instant.isAfter(notAfter);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReplicaCertificate c && java.util.Arrays.equals(c.encoded, encoded);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(encoded);
    }

    @Override
    public String toString() {
        return "ReplicaCertificate[" + replicaId + ", " + notBefore + ".." + notAfter + "]";
    }
}
