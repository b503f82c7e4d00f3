/**
 * Replicated state machine over JGroups: every replica applies every {@link eu.vpki.common.replication.Command}
 * to its own Redis, each origin's in sequence order without gaps, atomically and at most once (one Lua
 * script per command, which also appends the command to a durable per-origin log in that Redis). Replicas
 * report what they applied and fetch what they lack from each other's logs
 * ({@link eu.vpki.common.replication.AntiEntropy}), so crashes, partitions and restarts end in one merged
 * state; a replica serves only while it is in a majority and caught up
 * ({@link eu.vpki.common.replication.ReplicaStatus}, decided by {@link eu.vpki.common.replication.ServingGate}).
 * Each class has one job; the table is in {@code docs/replication.md} ("Inside the package").
 *
 * <p>Entry point: {@link eu.vpki.common.replication.Replica} ({@code connect}, {@code submit},
 * {@code awaitApplied}, {@code close}), configured by {@link eu.vpki.common.replication.ReplicationConfig}
 * over a {@link eu.vpki.common.replication.ReplicatedKeyspace}. Commands are lists of deterministic
 * {@link eu.vpki.common.replication.Operation}s whose values the origin fixed. Failures are
 * {@link eu.vpki.common.replication.ReplicationException}s, {@code PkiException}s with the replication
 * codes of {@code ErrorCode} (711-716).
 *
 * <p>Design, guarantees per mode, and the options weighed: {@code docs/replication.md} and
 * {@code docs/design-replication-recovery.md}.
 * Plain Java: no Spring.
 */
package eu.vpki.common.replication;
