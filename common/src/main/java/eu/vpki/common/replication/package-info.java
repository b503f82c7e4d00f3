/**
 * Replicated state machine over JGroups: every replica applies every {@link eu.vpki.common.replication.Command}
 * to its own Redis, in delivery order, atomically and at most once (one Lua script per command).
 *
 * <p>Entry point: {@link eu.vpki.common.replication.Replica} ({@code connect}, {@code submit},
 * {@code awaitApplied}, {@code close}), configured by {@link eu.vpki.common.replication.ReplicationConfig}
 * over a {@link eu.vpki.common.replication.ReplicatedKeyspace}. Commands are lists of deterministic
 * {@link eu.vpki.common.replication.Operation}s whose values the origin fixed. Failures are
 * {@link eu.vpki.common.replication.ReplicationException}s with stable codes.
 *
 * <p>Design, guarantees per mode, and the options weighed: {@code docs/replication.md}.
 * Plain Java: no Spring.
 */
package eu.vpki.common.replication;
