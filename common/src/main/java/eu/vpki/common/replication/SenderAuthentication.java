package eu.vpki.common.replication;

import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.util.Util;

import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Binds every message a member sends besides commands (applied reports, pulls and their answers,
 * applied-queries and their answers, the SYNC confirmations of a delivered command) to the replica that
 * sent it (docs/design-replication-security.md, "Anti-entropy messages"). With {@link OriginCredentials}
 * each such message travels sealed ({@link CommandCodec#SEALED}): the message, the sender's replica id, the
 * JGroups address it sends from, its clock, its replica certificate and its signature over all of that.
 * A receiver accepts it only if the credentials accept the certificate and signature for that replica id
 * (a trusted deployment CA issued it to that replica, valid at the signed time), the signed address is
 * the message's source, the signed time is within {@link #MAX_SKEW} of its own clock, and the source
 * address has spoken for no other replica in this view: the first replica that signs from an address binds
 * it until the address leaves the view. What the message then claims about its sender (a report's replica
 * id and origin) is checked against the signer by the caller. So a member holding replica A's certificate
 * can speak only as A: it cannot forge B's report (to make peers trim what B lacks, or believe B caught up),
 * nor confirm a SYNC command or answer an applied-query as B.
 *
 * <p>Commands are not sealed: they carry their origin's signature ({@link OriginAuthentication}), and the
 * member that delivers one is often not its origin. Without credentials nothing is sealed or checked, and
 * {@link Opened#sender()} is the source address. Thread-safe.
 */
final class SenderAuthentication {

    /** How far the signed time of a message may be from the receiver's clock. */
    static final Duration MAX_SKEW = Duration.ofMinutes(5);

    /** Why a message was refused (logged and counted by the caller; nothing of it is used). */
    static final class Refused extends RuntimeException {
        Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    /**
     * A message accepted from {@code source}.
     *
     * @param message the message inside the seal (as sent, without credentials)
     * @param sender  the replica id that signed it; without credentials, the source address
     */
    record Opened(byte[] message, String sender) {
    }

    private final OriginCredentials credentials;
    private final String replicaId;
    private final Clock clock;
    /** Per source address in the view, the replica that signed from it first. */
    private final Map<Address, String> bound = new ConcurrentHashMap<>();
    /** Per other member's address in the view, the certificate its last accepted message carried. */
    private final Map<Address, byte[]> certificates = new ConcurrentHashMap<>();
    private volatile Address selfAddress;
    private volatile byte[] self;

    /**
     * @param credentials this replica's (null: nothing is sealed or checked); the same as its {@link OriginAuthentication}'s
     * @param clock       the signed time of its messages, and the time received ones are compared with
     */
    SenderAuthentication(OriginCredentials credentials, String replicaId, Clock clock) {
        this.credentials = credentials;
        this.replicaId = replicaId;
        this.clock = clock;
    }

    boolean enabled() {
        return credentials != null;
    }

    /** After joining: the address this member's messages come from. */
    void start(Address address) {
        self = encoded(address);
        selfAddress = address;
    }

    /** Forgets the bindings and certificates of addresses that left the view. */
    void viewChanged(View view) {
        bound.keySet().removeIf(address -> !view.containsMember(address));
        certificates.keySet().removeIf(address -> !view.containsMember(address));
    }

    /**
     * The certificates of the other members in the view that sealed a message this member accepted (each checked
     * by the credentials: a trusted replica certificate, valid when it signed): whom this replica's commands are
     * tagged for ({@link ReceiverTags}). A live view of them.
     */
    Collection<byte[]> peerCertificates() {
        return certificates.values();
    }

    /** {@code message} sealed by this replica; unchanged without credentials. */
    byte[] seal(byte[] message) {
        if (credentials == null) {
            return message;
        }
        byte[] address = self;
        if (address == null) {
            throw new IllegalStateException("sealing before joining");
        }
        byte[] signed = CommandCodec.sealedContent(message, replicaId, address, clock.millis());
        return CommandCodec.encodeSealed(signed, credentials.certificate(), credentials.sign(signed));
    }

    /**
     * The message {@code source} sent, with the replica that signed it.
     *
     * @throws Refused if it is not sealed by a trusted replica, from its signed address, at a time near this
     *                 member's clock, or if that address spoke for another replica before
     * @throws eu.vpki.common.error.PkiException {@code MALFORMED_ENCODING} for bytes that are no sealed message
     */
    Opened open(byte[] payload, Address source) {
        if (credentials == null) {
            return new Opened(payload, source instanceof org.jgroups.util.UUID uuid ? uuid.toStringLong() : String.valueOf(source));
        }
        if (CommandCodec.kind(payload) != CommandCodec.SEALED) {
            throw new Refused("not signed by its sender (kind " + CommandCodec.kind(payload) + ")");
        }
        CommandCodec.Sealed sealed = CommandCodec.decodeSealed(payload);
        if (!Arrays.equals(sealed.address(), encoded(source))) {
            throw new Refused("signed by " + sealed.replicaId() + " for another address than " + source + ", its source");
        }
        long skew = Math.abs(clock.millis() - sealed.millis());
        if (skew > MAX_SKEW.toMillis()) {
            throw new Refused("signed by " + sealed.replicaId() + " " + skew + " ms away from this replica's clock");
        }
        String refusal = credentials.refusal(sealed.replicaId(), sealed.millis(), sealed.certificate(), sealed.signed(),
                sealed.signature());
        if (refusal != null) {
            throw new Refused("claims to come from " + sealed.replicaId() + ": " + refusal);
        }
        String first = bound.putIfAbsent(source, sealed.replicaId());
        if (first != null && !first.equals(sealed.replicaId())) {
            throw new Refused("signed by " + sealed.replicaId() + " from " + source + ", where " + first + " signed before");
        }
        if (!source.equals(selfAddress)) {
            byte[] certificate = sealed.certificate();
            byte[] known = certificates.get(source);
            if (known == null || !Arrays.equals(known, certificate)) {
                certificates.put(source, certificate);
            }
        }
        return new Opened(sealed.message(), sealed.replicaId());
    }

    private static byte[] encoded(Address address) {
        try {
            return Util.streamableToByteBuffer(address);
        } catch (Exception e) {
            throw new IllegalStateException("cannot encode address " + address, e);
        }
    }
}
