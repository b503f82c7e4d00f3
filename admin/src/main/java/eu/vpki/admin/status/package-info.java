/**
 * {@code vpki-admin status}: reads {@code /actuator/replication} from every EA and Operator replica's management port
 * ({@link eu.vpki.admin.status.ReplicaReport}) and prints the whole cluster in one table
 * ({@link eu.vpki.admin.status.StatusTable}); {@code docs/operations.md}, "Cluster status".
 */
package eu.vpki.admin.status;
