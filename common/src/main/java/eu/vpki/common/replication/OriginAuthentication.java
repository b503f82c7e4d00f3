package eu.vpki.common.replication;

import java.util.Collection;
import java.util.List;

/**
 * Binds a command's origin to the replica that issued it (docs/design-replication-security.md). With
 * {@link OriginCredentials} (the services give them whenever the transport runs TLS), each replica signs its
 * commands ({@link OriginSignature}), and a replica accepts a command, delivered by JGroups or fetched from a
 * peer's log, only if its credentials accept the certificate and signature it carries for the replica id of
 * the command's origin at the command's origin time. So a member holding replica A's certificate cannot
 * issue commands of B's origins, whichever member relays them (the SEQUENCER under TOTAL order, a peer's log
 * in anti-entropy). The decision depends on the command's bytes and the trusted CAs only, so every replica
 * decides alike. Without credentials nothing is signed or checked.
 *
 * <p>Beside the signature, the origin tags each command it sends for each peer whose certificate it knows
 * ({@link ReceiverTags}); a receiver that finds a valid tag for itself checks the command's certificate (trusted, of
 * the origin's replica, valid at the origin time) but not its signature: the tag proves that the holder of that
 * certificate's key sent exactly those bytes, so an honest origin's command is accepted everywhere alike, by tag
 * here, by signature where it arrives untagged (from a peer's log, or at a replica the origin did not know yet).
 * Thread-safe.
 */
final class OriginAuthentication {

    /** No credentials: commands are neither signed nor checked. */
    static final OriginAuthentication NONE = new OriginAuthentication(null);

    private final OriginCredentials credentials;
    /** The tags beside the signatures (null without credentials). */
    private final ReceiverTags tags;
    private final byte[] tagId;

    private OriginAuthentication(OriginCredentials credentials) {
        this.credentials = credentials;
        this.tags = credentials == null ? null : new ReceiverTags(credentials);
        this.tagId = tags == null ? null : tags.ownId();
    }

    /**
     * Signing and checking with {@code credentials}; {@link #NONE} for null.
     *
     * @throws IllegalArgumentException if the credentials are another replica's than {@code replicaId} (the
     *                                  replica would refuse its own commands)
     */
    static OriginAuthentication of(OriginCredentials credentials, String replicaId) {
        if (credentials == null) {
            return NONE;
        }
        if (!credentials.replicaId().equals(replicaId)) {
            throw new IllegalArgumentException("the replication key store holds the certificate of replica "
                    + credentials.replicaId() + ", not of " + replicaId + " (vpki.replication.replica-id)");
        }
        return new OriginAuthentication(credentials);
    }

    boolean enabled() {
        return credentials != null;
    }

    /** {@code command} signed by this replica; unchanged without credentials. */
    Command sign(Command command) {
        if (credentials == null) {
            return command;
        }
        return command.signed(new OriginSignature(credentials.certificate(), credentials.sign(CommandCodec.unsignedEncoding(command))));
    }

    /**
     * Whether every replica's {@link #refusal} accepts {@code command}, which this replica signed ({@link #sign}):
     * its certificate was valid at the command's origin time. Key, certificate, trust and replica id were checked when
     * the credentials were made and in {@link #of}, and the signature is this replica's own, so this is the whole
     * decision, without verifying the signature. False without credentials (nothing is signed).
     */
    boolean acceptsOwn(Command command) {
        return credentials != null && command.signature() != null && credentials.validAt(command.originMillis());
    }

    /**
     * {@code encoded}, a command this replica signed, as it is sent: with a tag for each of {@code peerCertificates}
     * ({@link CommandCodec#TAGGED}), or as it is if there is none to tag for (or no credentials).
     */
    byte[] tagged(byte[] encoded, Collection<byte[]> peerCertificates) {
        if (tags == null || peerCertificates.isEmpty()) {
            return encoded;
        }
        List<ReceiverTags.Tag> made = tags.tags(encoded, peerCertificates);
        return made.isEmpty() ? encoded : CommandCodec.encodeTagged(encoded, made);
    }

    /** This replica's receiver id in tagged commands; null without credentials. */
    byte[] tagId() {
        return tagId == null ? null : tagId.clone();
    }

    /**
     * Why {@code command}, received as {@code received} with {@code tag} for this replica (null: none), must be refused,
     * or null if it may be applied. With a valid tag only its certificate is checked; with none, or one that does not
     * verify, the whole {@link #refusal(Command)}.
     */
    String refusal(Command command, byte[] received, byte[] tag) {
        if (tag != null && credentials != null) {
            OriginSignature signature = command.signature();
            if (signature != null) {
                byte[] certificate = signature.certificate();
                if (credentials.refusal(command.id().replicaId(), command.originMillis(), certificate) == null
                        && tags.verifies(certificate, received, tag)) {
                    return null;
                }
            }
        }
        return refusal(command);
    }

    /** Why {@code command} must be refused, or null if it may be applied. */
    String refusal(Command command) {
        if (credentials == null) {
            return null;
        }
        OriginSignature signature = command.signature();
        if (signature == null) {
            return "not signed by its origin";
        }
        return credentials.refusal(command.id().replicaId(), command.originMillis(), signature.certificate(),
                CommandCodec.unsignedEncoding(command), signature.signature());
    }
}
