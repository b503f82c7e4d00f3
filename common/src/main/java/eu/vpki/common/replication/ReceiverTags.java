package eu.vpki.common.replication;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Per-receiver tags beside the origin signatures (docs/design-replication-security.md, "Per-receiver tags"): the
 * origin of a command adds, for each peer whose replica certificate it knows, an HMAC-SHA256 tag over the command's
 * signed encoding under a key that it shares with that peer only; a receiver that finds a valid tag for itself knows
 * that the holder of the origin certificate's key made exactly those bytes, and accepts the command without verifying
 * its ECDSA signature. A receiver without a valid tag verifies the signature, as every replica did before.
 *
 * <p>The key of origin A for receiver B: HKDF-SHA256 (RFC 5869) with the x coordinate of static ECDH between their two
 * replica keys ({@link OriginCredentials#agree}, which refuses a certificate no trusted CA issued) as input key
 * material, no salt, and as info a label, SHA-256 of A's certificate and SHA-256 of B's certificate: one key per
 * direction, bound to both certificates. Derived once per peer certificate (one ECDH) and remembered. A tag names its
 * receiver by the first {@value #ID_BYTES} bytes of SHA-256 of the receiver's certificate. Tags are compared in
 * constant time. Thread-safe.
 */
final class ReceiverTags {
    /** Bytes of a receiver's id in a tagged command. */
    static final int ID_BYTES = 8;
    /** Bytes of a tag (HMAC-SHA256, untruncated). */
    static final int TAG_BYTES = 32;
    /** Peer certificates whose keys are remembered; more (only trusted certificates get in) start the memory afresh. */
    private static final int REMEMBERED = 64;
    private static final byte[] LABEL = "vpki replication command tag v1".getBytes(StandardCharsets.US_ASCII);
    private static final String HMAC = "HmacSHA256";
    private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance(HMAC);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no " + HMAC + " in this JVM", e);
        }
    });

    /**
     * The keys this replica shares with the holder of one peer certificate.
     *
     * @param peerId   the peer's id in tagged commands
     * @param toPeer   the key of this replica's tags for that peer
     * @param fromPeer the key of that peer's tags for this replica
     */
    private record Pair(byte[] peerId, SecretKeySpec toPeer, SecretKeySpec fromPeer) {
    }

    /** A tag for one receiver. */
    record Tag(byte[] receiverId, byte[] tag) {
        Tag {
            if (receiverId.length != ID_BYTES || tag.length != TAG_BYTES) {
                throw new IllegalArgumentException("a tag is " + ID_BYTES + " bytes of receiver id and " + TAG_BYTES + " of HMAC");
            }
        }
    }

    private final OriginCredentials credentials;
    private final byte[] ownDigest;
    private final byte[] ownId;
    private final Map<ByteBuffer, Pair> pairs = new ConcurrentHashMap<>();

    ReceiverTags(OriginCredentials credentials) {
        this.credentials = credentials;
        this.ownDigest = sha256(credentials.certificate());
        this.ownId = Arrays.copyOf(ownDigest, ID_BYTES);
    }

    /** This replica's id in tagged commands. */
    byte[] ownId() {
        return ownId.clone();
    }

    /**
     * The tags of {@code command} (its encoding, as it is sent) for each of {@code peerCertificates} (one per receiver
     * id, none for a certificate no trusted CA issued, nor for this replica's own certificate).
     */
    List<Tag> tags(byte[] command, Collection<byte[]> peerCertificates) {
        List<Tag> tags = new ArrayList<>(peerCertificates.size());
        for (byte[] certificate : peerCertificates) {
            Pair pair = pair(certificate);
            if (pair == null || Arrays.equals(pair.peerId(), ownId)
                    || tags.stream().anyMatch(t -> Arrays.equals(t.receiverId(), pair.peerId()))) {
                continue;
            }
            tags.add(new Tag(pair.peerId(), hmac(pair.toPeer(), command)));
        }
        return tags;
    }

    /**
     * Whether {@code tag} is the tag that the holder of {@code originCertificate}'s key made for this replica over
     * {@code command} (the command's encoding as received). False for a certificate no trusted CA issued. The caller
     * checks that the certificate is the command origin's and was valid at its origin time.
     */
    boolean verifies(byte[] originCertificate, byte[] command, byte[] tag) {
        Pair pair = pair(originCertificate);
        return pair != null && MessageDigest.isEqual(hmac(pair.fromPeer(), command), tag);
    }

    private Pair pair(byte[] certificate) {
        ByteBuffer key = ByteBuffer.wrap(certificate);
        Pair known = pairs.get(key);
        if (known != null) {
            return known;
        }
        byte[] shared = credentials.agree(certificate);
        if (shared == null) {
            return null;
        }
        try {
            byte[] peerDigest = sha256(certificate);
            Pair pair = new Pair(Arrays.copyOf(peerDigest, ID_BYTES), new SecretKeySpec(hkdf(shared, info(ownDigest, peerDigest)), HMAC),
                    new SecretKeySpec(hkdf(shared, info(peerDigest, ownDigest)), HMAC));
            if (pairs.size() >= REMEMBERED) {
                pairs.clear();
            }
            pairs.put(ByteBuffer.wrap(certificate.clone()), pair);
            return pair;
        } finally {
            Arrays.fill(shared, (byte) 0);
        }
    }

    /** HKDF's info for the key of tags from the holder of the certificate with {@code originDigest} to the one with {@code receiverDigest}. */
    private static byte[] info(byte[] originDigest, byte[] receiverDigest) {
        byte[] info = Arrays.copyOf(LABEL, LABEL.length + originDigest.length + receiverDigest.length);
        System.arraycopy(originDigest, 0, info, LABEL.length, originDigest.length);
        System.arraycopy(receiverDigest, 0, info, LABEL.length + originDigest.length, receiverDigest.length);
        return info;
    }

    /** HKDF-SHA256 (RFC 5869) without salt, 32 bytes of output: one expand block. */
    static byte[] hkdf(byte[] inputKeyMaterial, byte[] info) {
        byte[] prk = hmac(new SecretKeySpec(new byte[32], HMAC), inputKeyMaterial);
        try {
            byte[] block = Arrays.copyOf(info, info.length + 1);
            block[info.length] = 1;
            return hmac(new SecretKeySpec(prk, HMAC), block);
        } finally {
            Arrays.fill(prk, (byte) 0);
        }
    }

    private static byte[] hmac(SecretKeySpec key, byte[] message) {
        Mac mac = MACS.get();
        try {
            mac.init(key);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(HMAC + " refused a 32-byte key", e);
        }
        return mac.doFinal(message);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no SHA-256 in this JVM", e);
        }
    }
}
