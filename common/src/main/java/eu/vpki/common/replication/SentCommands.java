package eu.vpki.common.replication;

import java.util.Arrays;

/**
 * The last commands one membership signed and sent, as it encoded them, so that it need not verify its own
 * signature when JGroups delivers them back to it (docs/design-replication-security.md, "Checking one's own
 * commands"). A delivered command is taken as this membership's own only if it carries this membership's
 * origin, a sequence number it sent, and exactly the bytes it sent: then it is the command this replica
 * signed, and every other replica's check of it ({@link OriginAuthentication#refusal}) accepts it, since only
 * commands whose signing certificate was valid at their origin time are recorded
 * ({@link OriginAuthentication#acceptsOwn}). Anything else (another origin, a sequence number not sent or no
 * longer held, other bytes under a sent id) goes through the full check. Holds at most {@link #CAPACITY}
 * commands (an older one is overwritten by the one {@code CAPACITY} sequence numbers later, and then checked
 * in full if it still comes back); a command leaves when it comes back. Thread-safe.
 */
final class SentCommands {
    /** Commands held at most: far more than a replica has in flight (one per waiting client). */
    static final int CAPACITY = 256;

    private final String origin;
    private final long[] seqs = new long[CAPACITY];
    private final byte[][] encodings = new byte[CAPACITY][];

    SentCommands(String origin) {
        this.origin = origin;
    }

    /** {@code id}, of this membership's origin, was sent as {@code encoding}. */
    synchronized void sent(CommandId id, byte[] encoding) {
        if (!id.origin().equals(origin)) {
            throw new IllegalArgumentException(id + " is not of origin " + origin);
        }
        int slot = slot(id.seq());
        seqs[slot] = id.seq();
        encodings[slot] = encoding;
    }

    /**
     * Whether {@code command}, delivered as {@code received}, is one this membership sent, byte for byte; if so
     * it is forgotten (a second delivery of it is checked in full).
     */
    synchronized boolean cameBack(Command command, byte[] received) {
        CommandId id = command.id();
        if (!id.origin().equals(origin)) {
            return false;
        }
        int slot = slot(id.seq());
        byte[] sent = encodings[slot];
        if (sent == null || seqs[slot] != id.seq() || !Arrays.equals(sent, received)) {
            return false;
        }
        encodings[slot] = null;
        return true;
    }

    private static int slot(long seq) {
        return (int) Math.floorMod(seq, (long) CAPACITY);
    }
}
