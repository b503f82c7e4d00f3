package eu.vpki.common.replication;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Origin credentials that count what they are asked: the command checks ({@link OriginCredentials#refusal} of a
 * command's encoding: ECDSA verifications) by origin replica, the sealed applied answers (SYNC confirmations) opened,
 * by signer, the commands that came with a tag for this replica ({@link ReceiverTags}: their certificate is checked,
 * and their signature only if the tag does not verify), by origin replica, and the key agreements
 * ({@link OriginCredentials#agree}).
 */
record CountingCredentials(OriginCredentials credentials, Map<String, AtomicInteger> checks, Map<String, AtomicInteger> answers,
                           Map<String, AtomicInteger> tagged, AtomicInteger agreements)
        implements
            OriginCredentials {

    CountingCredentials(OriginCredentials credentials, Map<String, AtomicInteger> checks, Map<String, AtomicInteger> answers,
                        Map<String, AtomicInteger> tagged) {
        this(credentials, checks, answers, tagged, new AtomicInteger());
    }

    /** Counting from nothing. */
    CountingCredentials(OriginCredentials credentials) {
        this(credentials, new ConcurrentHashMap<>(), new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
    }

    /** The ECDSA verifications of commands, of every origin. */
    int verifications() {
        return checks.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    @Override
    public String replicaId() {
        return credentials.replicaId();
    }

    @Override
    public byte[] certificate() {
        return credentials.certificate();
    }

    @Override
    public byte[] sign(byte[] message) {
        return credentials.sign(message);
    }

    @Override
    public boolean validAt(long originMillis) {
        return credentials.validAt(originMillis);
    }

    @Override
    public String refusal(String replicaId, long originMillis, byte[] certificate) {
        tagged.computeIfAbsent(replicaId, id -> new AtomicInteger()).incrementAndGet(); // a command with a tag for this replica
        return credentials.refusal(replicaId, originMillis, certificate);
    }

    @Override
    public byte[] agree(byte[] certificate) {
        agreements.incrementAndGet();
        return credentials.agree(certificate);
    }

    @Override
    public String refusal(String replicaId, long originMillis, byte[] certificate, byte[] message, byte[] signature) {
        if (message.length > 0 && message[0] == CommandCodec.FORMAT_VERSION) { // a command (sealed messages start otherwise)
            checks.computeIfAbsent(replicaId, id -> new AtomicInteger()).incrementAndGet();
        } else if (message.length > 2 && message[0] == CommandCodec.SEALED) { // kind, varint length, the message
            int at = 1;
            while ((message[at] & 0x80) != 0) {
                at++;
            }
            if (message[at + 1] == CommandCodec.APPLIED_ANSWER) {
                answers.computeIfAbsent(replicaId, id -> new AtomicInteger()).incrementAndGet();
            }
        }
        return credentials.refusal(replicaId, originMillis, certificate, message, signature);
    }
}
