package eu.vpki.cli;

import eu.vpki.common.http.HttpClients;
import eu.vpki.testbed.ClusterStateFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ./vpki status}: {@code vpki-admin status} for the local cluster, whose replicas' management URLs it reads from
 * the cluster's state file ({@code <work-dir>/cluster.json}).
 */
@Command(name = "status", mixinStandardHelpOptions = true, description = {
        "The local cluster's replicated state in one table: 'vpki-admin status' against every EA and Operator replica",
        "of the cluster started from --work-dir (docs/operations.md). Exit status: 0 when every replica serves, 1 otherwise."})
final class StatusCommand implements Callable<Integer> {
    @Option(names = "--work-dir", defaultValue = "run/cluster", description = "the cluster's work directory (default ${DEFAULT-VALUE})")
    Path workDir;
    @Option(names = "--timeout", defaultValue = "PT5S", description = "how long to wait for each replica (default ${DEFAULT-VALUE})")
    Duration timeout;

    @Override
    public Integer call() {
        List<URI> replicas = ClusterStateFile.replicaManagement(workDir);
        List<eu.vpki.admin.status.ReplicaReport> reports = eu.vpki.admin.status.StatusCommand.read(HttpClients.http11(timeout).build(),
                replicas, timeout);
        return eu.vpki.admin.status.StatusCommand.print(reports, System.out);
    }
}
