package eu.vpki.common.replication;

/**
 * How a replica signs its commands and checks the signatures of other origins' commands
 * ({@link OriginAuthentication}); implemented over the deployment CA's certificates by
 * {@code eu.vpki.common.etsi.crypto.DeploymentCredentials} (this package knows no certificate format
 * and no curve). Implementations are thread-safe and decide from their arguments and their trust
 * anchors only (never a clock), so that every replica decides alike.
 */
public interface OriginCredentials {

    /** The replica id this replica's certificate names. */
    String replicaId();

    /** This replica's certificate, as it travels in each signed command. */
    byte[] certificate();

    /** This replica's signature over {@code message}. */
    byte[] sign(byte[] message);

    /**
     * Why a command of replica {@code replicaId}, created at {@code originMillis}, that carries
     * {@code certificate} and {@code signature} over {@code message} must be refused; null if the
     * certificate is a trusted one of {@code replicaId}, valid at {@code originMillis}, and the signature
     * verifies with its key. Never throws for any bytes.
     */
    String refusal(String replicaId, long originMillis, byte[] certificate, byte[] message, byte[] signature);
}
