package eu.vpki.operator.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.InvalidInputException;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.replication.Acknowledgement;
import eu.vpki.common.replication.CommandId;
import eu.vpki.common.replication.Operation;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.replication.ReplicationException;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Writes through the replica and hands out version tokens; reads presenting a token wait (boundedly)
 * until this replica applied it. The token is the replicated command's id, {@code seq@origin}.
 * A read whose token is not applied within the wait fails with VERSION_NOT_YET_APPLIED, which the
 * shell answers with 503 and {@code Retry-After}: the client retries (here or at another replica).
 */
public final class ReadYourWrites {
    private final Replica replica;
    private final OperatorSettings settings;

    public ReadYourWrites(Replica replica, OperatorSettings settings) {
        this.replica = replica;
        this.settings = settings;
    }

    /** Replicates one command and returns its token. */
    public String write(List<Operation> command) {
        try {
            Acknowledgement ack = replica.submitAndWait(command, settings.replicationTimeout());
            return ack.token().toString();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof PkiException refused && refused.code() == ErrorCode.STORAGE_FULL) {
                throw refused; // nothing was sent: this replica's Redis is at its memory limit
            }
            throw new PkiException(ErrorCode.REPLICATION_UNAVAILABLE, "write not replicated: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new PkiException(ErrorCode.REPLICATION_UNAVAILABLE, "write not replicated within " + settings.replicationTimeout(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PkiException(ErrorCode.REPLICATION_UNAVAILABLE, "interrupted", e);
        }
    }

    /** Waits until this replica applied {@code token} (no-op for null). */
    public void awaitVersion(String token) {
        if (token == null || token.isBlank()) {
            return;
        }
        CommandId id;
        try {
            id = CommandId.parse(token.strip());
        } catch (IllegalArgumentException e) {
            throw InvalidInputException.of("X-Vpki-Version", ErrorCode.INVALID_ARGUMENT, "not a version token (seq@origin)");
        }
        if (replica.hasApplied(id)) {
            return;
        }
        try {
            replica.awaitApplied(id, settings.readWait().isZero() ? Duration.ofMillis(1) : settings.readWait());
        } catch (ReplicationException e) {
            throw new PkiException(ErrorCode.VERSION_NOT_YET_APPLIED, "version " + id + " not applied on this replica yet", e);
        }
    }
}
