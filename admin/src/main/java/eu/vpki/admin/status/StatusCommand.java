package eu.vpki.admin.status;

import eu.vpki.common.http.HttpClients;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/** {@code vpki-admin status}: every replica's {@code /actuator/replication}, the whole cluster in one table. */
@Command(name = "status", mixinStandardHelpOptions = true, description = {
        "Read /actuator/replication from the management port of every EA and Operator replica and print the whole",
        "cluster in one table: state (and why a replica does not serve), view, coordinator, lag, hold-back, command log,",
        "Redis memory, certificates' days left, and the applied positions per origin side by side.",
        "Exit status: 0 when every replica serves, 1 otherwise."})
public final class StatusCommand implements Callable<Integer> {
    @Parameters(paramLabel = "URL", arity = "0..*", description = "management base URLs of the replicas, e.g. http://10.0.1.5:9083")
    List<URI> urls = new ArrayList<>();
    @Option(names = "--replicas-file", description = "a file of management base URLs, one a line ('#' starts a comment)")
    Path replicasFile;
    @Option(names = "--tls-ca", description = "CA certificate (PEM) of the management ports' TLS certificates, if they speak https")
    Path tlsCa;
    @Option(names = "--timeout", defaultValue = "PT5S", description = "how long to wait for each replica (default ${DEFAULT-VALUE})")
    Duration timeout;

    @Override
    public Integer call() throws IOException {
        List<URI> all = new ArrayList<>(urls);
        if (replicasFile != null) {
            all.addAll(readReplicasFile(replicasFile));
        }
        if (all.isEmpty()) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "name the replicas' management URLs, or --replicas-file");
        }
        HttpClient http = HttpClients.http11(timeout).trustingPemCa(tlsCa).build();
        return print(read(http, all, timeout), System.out);
    }

    /** Asks every replica at once; the reports in the order of {@code urls}. */
    public static List<ReplicaReport> read(HttpClient http, List<URI> urls, Duration timeout) {
        List<CompletableFuture<ReplicaReport>> answers = urls.stream()
                .map(url -> CompletableFuture.supplyAsync(() -> ReplicaReport.fetch(http, url, timeout))).toList();
        return answers.stream().map(CompletableFuture::join).toList();
    }

    /** Prints the table; 0 when every replica serves, else 1. */
    public static int print(List<ReplicaReport> reports, PrintStream out) {
        out.print(StatusTable.render(reports));
        return reports.stream().allMatch(ReplicaReport::serving) ? 0 : 1;
    }

    static List<URI> readReplicasFile(Path file) throws IOException {
        return Files.readAllLines(file).stream().map(line -> line.replaceAll("#.*", "").strip()).filter(line -> !line.isEmpty())
                .map(URI::create).toList();
    }
}
