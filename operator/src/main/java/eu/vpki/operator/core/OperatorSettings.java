package eu.vpki.operator.core;

import java.time.Duration;

/**
 * Tunables of the Operator core (from {@code vpki.operator.*}).
 *
 * @param maxBatch           most stations in one registration batch
 * @param readWait           how long a read presenting a version token waits for this replica to apply it
 * @param replicationTimeout longest wait for a write's replication before answering 503
 */
public record OperatorSettings(int maxBatch, Duration readWait, Duration replicationTimeout) {
    public static final OperatorSettings DEFAULTS = new OperatorSettings(1_000, Duration.ofSeconds(2), Duration.ofSeconds(10));

    public OperatorSettings {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("max-batch must be positive");
        }
        if (readWait == null || readWait.isNegative()) {
            throw new IllegalArgumentException("read-wait must not be negative");
        }
        if (replicationTimeout == null || replicationTimeout.isZero() || replicationTimeout.isNegative()) {
            throw new IllegalArgumentException("replication-timeout must be positive");
        }
    }
}
