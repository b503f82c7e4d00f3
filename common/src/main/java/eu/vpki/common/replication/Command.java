package eu.vpki.common.replication;

import java.util.List;

/**
 * A replicated command: what the origin decided, applied atomically and at most once by every replica.
 *
 * @param id           origin replica and its sequence number
 * @param originMillis the origin's clock when it created the command (for lag metrics only; applying
 *                     never reads a clock)
 * @param operations   the writes, applied in order, all or nothing
 */
public record Command(CommandId id, long originMillis, List<Operation> operations) {

    public Command {
        if (operations.isEmpty()) {
            throw new IllegalArgumentException("a command has at least one operation");
        }
        operations = List.copyOf(operations);
    }
}
