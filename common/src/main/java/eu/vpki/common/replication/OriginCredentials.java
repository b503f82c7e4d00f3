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
     * Whether this replica's own certificate was valid at {@code originMillis}: the one part of
     * {@link #refusal} that can refuse a command this replica signed (its key matches its certificate, a
     * trusted CA issued it, and it names {@link #replicaId()}, all checked when the credentials were made),
     * so that a replica can decide on its own commands as every other replica decides on them without
     * verifying its own signature ({@link OriginAuthentication#acceptsOwn}). Never reads a clock.
     */
    boolean validAt(long originMillis);

    /**
     * Why {@code certificate} cannot vouch for a command of replica {@code replicaId} created at {@code originMillis};
     * null if it is a trusted certificate of {@code replicaId}, valid at {@code originMillis}: {@link #refusal(String,
     * long, byte[], byte[], byte[])} without the signature, what a command accepted by its tag is checked for
     * ({@link ReceiverTags}). Never throws for any bytes.
     */
    String refusal(String replicaId, long originMillis, byte[] certificate);

    /**
     * The secret this replica shares with the holder of {@code certificate}'s key: the x coordinate of static ECDH
     * between this replica's key and that key, the same on both sides ({@link ReceiverTags} derives the keys of their
     * command tags from it); null if {@code certificate} is not a replica certificate a trusted CA issued (no key is
     * ever derived from a certificate that is not). Never throws for any bytes.
     */
    byte[] agree(byte[] certificate);

    /**
     * Why a command of replica {@code replicaId}, created at {@code originMillis}, that carries
     * {@code certificate} and {@code signature} over {@code message} must be refused; null if the
     * certificate is a trusted one of {@code replicaId}, valid at {@code originMillis}, and the signature
     * verifies with its key. Never throws for any bytes.
     */
    String refusal(String replicaId, long originMillis, byte[] certificate, byte[] message, byte[] signature);
}
