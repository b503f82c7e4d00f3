package eu.vpki.common.replication;

/**
 * A successful {@link Replica#submit(java.util.List)}.
 *
 * @param token    the command's id, the read-your-writes token for {@link Replica#awaitApplied}
 * @param replicas how many replicas confirmed they applied it: every member of the view (minus those that
 *                 left during the request) in {@link ReplicationConfig.Propagation#SYNC}, 1 (the origin) in
 *                 {@link ReplicationConfig.Propagation#ASYNC}
 */
public record Acknowledgement(CommandId token, int replicas) {
}
