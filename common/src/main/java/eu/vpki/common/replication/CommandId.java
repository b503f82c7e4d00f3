package eu.vpki.common.replication;

import java.util.regex.Pattern;

/**
 * Identity of a replicated command: the replica that originated it and that replica's sequence
 * number (1, 2, 3, ... assigned on one thread). It is also the version token handed to clients for
 * read-your-writes: {@link Replica#awaitApplied(CommandId, java.time.Duration)} on any replica waits
 * until that replica has applied the command. Text form: {@code seq@origin}, e.g. {@code 42@ea-1}.
 */
public record CommandId(String origin, long seq) {

    static final Pattern REPLICA_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    public CommandId {
        requireReplicaId(origin);
        if (seq < 1) {
            throw new IllegalArgumentException("sequence numbers start at 1, got " + seq);
        }
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
