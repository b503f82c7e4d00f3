package eu.vpki.common.replication;

import java.util.regex.Pattern;

/**
 * Identity of a replicated command: the origin that numbered it and its sequence number there (1, 2,
 * 3, ... assigned on one thread, without gaps). An origin is one incarnation of a replica: the
 * replica id plus {@code ~} plus the incarnation's epoch in base 36, e.g. {@code ea-1~mi3k2x1c}. A
 * replica takes a new incarnation every time it joins the group (start, restart, recovery from a
 * Redis failure), with an epoch above every earlier one of its own, so a sequence number is never
 * used twice even when a replica lost what it last sent (docs/design-replication-recovery.md). The
 * id is also the version token handed to clients for read-your-writes:
 * {@link Replica#awaitApplied(CommandId, java.time.Duration)} on any replica waits until that replica
 * has applied the command. Text form: {@code seq@origin}, e.g. {@code 42@ea-1~mi3k2x1c}.
 */
public record CommandId(String origin, long seq) {

    static final Pattern REPLICA_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    static final Pattern ORIGIN = Pattern.compile("[A-Za-z0-9._:-]{1,64}(~[0-9a-z]{1,13})?");
    private static final char INCARNATION = '~';

    public CommandId {
        if (origin == null || !ORIGIN.matcher(origin).matches()) {
            throw new IllegalArgumentException("origin must match " + ORIGIN + ", got " + origin);
        }
        if (seq < 1) {
            throw new IllegalArgumentException("sequence numbers start at 1, got " + seq);
        }
        int separator = origin.indexOf(INCARNATION);
        if (separator > 0) {
            try {
                Long.parseLong(origin.substring(separator + 1), 36);
            } catch (NumberFormatException e) {
                // 13 base-36 digits can exceed a long: a replica computing its next epoch from it would fail to join
                throw new IllegalArgumentException("incarnation epoch of " + origin + " exceeds a long", e);
            }
        }
    }

    /** The replica whose incarnation numbered this command. */
    public String replicaId() {
        return replicaIdOf(origin);
    }

    /** The origin name of {@code replicaId}'s incarnation that started at {@code epoch}. */
    static String incarnation(String replicaId, long epoch) {
        requireReplicaId(replicaId);
        if (epoch < 0) {
            throw new IllegalArgumentException("epochs are non-negative, got " + epoch);
        }
        return replicaId + INCARNATION + Long.toString(epoch, 36);
    }

    /** The replica id part of an origin. */
    static String replicaIdOf(String origin) {
        int separator = origin.indexOf(INCARNATION);
        return separator < 0 ? origin : origin.substring(0, separator);
    }

    /** The epoch of an incarnation's origin name; -1 for an origin without one. */
    static long epochOf(String origin) {
        int separator = origin.indexOf(INCARNATION);
        return separator < 0 ? -1 : Long.parseLong(origin.substring(separator + 1), 36);
    }

    /** Parses the text form produced by {@link #toString()}. */
    public static CommandId parse(String text) {
        int at = text.indexOf('@');
        if (at <= 0) {
            throw new IllegalArgumentException("not a command id (seq@origin): " + text);
        }
        try {
            return new CommandId(text.substring(at + 1), Long.parseLong(text.substring(0, at)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a command id (seq@origin): " + text, e);
        }
    }

    static String requireReplicaId(String id) {
        if (id == null || !REPLICA_ID.matcher(id).matches()) {
            throw new IllegalArgumentException("replica id must match " + REPLICA_ID + ", got " + id);
        }
        return id;
    }

    @Override
    public String toString() {
        return seq + "@" + origin;
    }
}
