package eu.vpki.common.replication;

import java.util.List;

/**
 * A replicated command: what the origin decided, applied atomically and at most once by every replica.
 *
 * @param id           origin replica and its sequence number
 * @param originMillis the origin's clock when it created the command (for lag metrics and the signing
 *                     certificate's validity only; applying never reads a clock)
 * @param operations   the writes, applied in order, all or nothing
 * @param signature    the origin's signature with its replica certificate, or null (a group without TLS:
 *                     nobody signs; with TLS every command must carry one, see {@link OriginAuthentication})
 */
public record Command(CommandId id, long originMillis, List<Operation> operations, OriginSignature signature) {

    public Command {
        if (operations.isEmpty()) {
            throw new IllegalArgumentException("a command has at least one operation");
        }
        operations = List.copyOf(operations);
    }

    /** An unsigned command. */
    public Command(CommandId id, long originMillis, List<Operation> operations) {
        this(id, originMillis, operations, null);
    }

    /** The same command with {@code originSignature}. */
    Command signed(OriginSignature originSignature) {
        return new Command(id, originMillis, operations, originSignature);
    }
}
