/**
 * The replicated fleet state of a service (EA and Operator replicas): {@code vpki.replication.*} and
 * {@code vpki.redis.*}, the replica's own Redis pool and the {@link eu.vpki.common.replication.Replica},
 * and the health of both. Active when the service declares the
 * {@link eu.vpki.common.replication.ReplicatedKeyspace} it replicates.
 */
package eu.vpki.shell.replication;
