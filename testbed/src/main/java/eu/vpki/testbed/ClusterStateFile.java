package eu.vpki.testbed;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A running local PKI's {@code cluster.json} in its work directory: its endpoints, the replicas' management URLs,
 * the operator's token file, the launcher's pid and every child's, so that a command in another process can use
 * the cluster ({@code --cluster DIR}) or stop it ({@link #stop(Path)}), and a second launcher refuses
 * to start over a running one ({@link #refuseIfRunning(Path)}).
 */
public final class ClusterStateFile {
    /** The file's name in the work directory. */
    public static final String NAME = "cluster.json";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ClusterStateFile() {
    }

    /** Writes the state of a started cluster. */
    static void write(Path work, ClusterSpec spec, LocalCluster.Endpoints endpoints, List<URI> replicaManagement, List<Long> pids) {
        ObjectNode n = JSON.createObjectNode();
        n.put("spec", spec.describe());
        n.put("rca", endpoints.rca().toString());
        n.put("dc", endpoints.dc().toString());
        n.put("rcaCertificate", endpoints.rcaCertificate().toString());
        n.put("tlsCaCertificate", endpoints.tlsCa().toString());
        n.put("operatorId", endpoints.operatorId());
        n.put("operatorTokenFile", work.resolve("secrets/operator-token").toString());
        var ops = n.putArray("operators");
        endpoints.operators().forEach(u -> ops.add(u.toString()));
        var eas = n.putArray("eaReplicas");
        endpoints.eaReplicas().forEach(u -> eas.add(u.toString()));
        var aas = n.putArray("aas");
        endpoints.aas().forEach(u -> aas.add(u.toString()));
        var management = n.putArray("replicaManagement");
        replicaManagement.forEach(u -> management.add(u.toString()));
        n.put("launcherPid", ProcessHandle.current().pid());
        var array = n.putArray("pids");
        pids.forEach(array::add);
        try {
            Files.writeString(work.resolve(NAME), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(n));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The management base URLs of the EA and Operator replicas of the cluster running from {@code workDir} (where
     * {@code /actuator/replication} answers: {@code ./vpki status}).
     *
     * @throws IllegalStateException if no cluster runs from there
     */
    public static List<URI> replicaManagement(Path workDir) {
        Path state = workDir.toAbsolutePath().resolve(NAME);
        if (!Files.isRegularFile(state)) {
            throw new IllegalStateException(
                    "no cluster runs from " + workDir + " (no " + NAME + "): start one with './vpki cluster start'");
        }
        List<URI> urls = new ArrayList<>();
        read(state).path("replicaManagement").forEach(u -> urls.add(URI.create(u.asText())));
        return urls;
    }

    /** Fails if {@code workDir} holds the state of a cluster whose launcher still runs: its files must not be deleted. */
    static void refuseIfRunning(Path workDir) {
        Path state = workDir.toAbsolutePath().resolve(NAME);
        if (!Files.isRegularFile(state)) {
            return;
        }
        JsonNode n = read(state);
        if (n.has("launcherPid") && ProcessHandle.of(n.get("launcherPid").asLong()).map(ProcessHandle::isAlive).orElse(false)) {
            throw new IllegalStateException("a cluster is running from " + workDir + " (launcher pid " + n.get("launcherPid").asLong()
                    + "): stop it first (cluster stop --work-dir " + workDir + ")");
        }
    }

    /** Stops the cluster described by {@code workDir/cluster.json}, started by another process; returns how many children it ended. */
    public static int stop(Path workDir) {
        Path state = workDir.resolve(NAME);
        if (!Files.exists(state)) {
            return 0;
        }
        JsonNode n = read(state);
        // the launcher's shutdown hook stops its services gracefully; whatever is left is ended below
        if (n.has("launcherPid") && n.get("launcherPid").asLong() != ProcessHandle.current().pid()) {
            ProcessHandle.of(n.get("launcherPid").asLong()).ifPresent(launcher -> {
                launcher.destroy();
                try {
                    launcher.onExit().get(60, TimeUnit.SECONDS);
                } catch (Exception e) {
                    launcher.destroyForcibly();
                }
            });
        }
        List<ProcessHandle> handles = new ArrayList<>();
        n.get("pids").forEach(p -> ProcessHandle.of(p.asLong()).ifPresent(handles::add));
        handles.forEach(ProcessHandle::destroy);
        for (ProcessHandle h : handles) {
            try {
                h.onExit().get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
        delete(workDir);
        return n.get("pids").size();
    }

    /** Removes the state file of {@code workDir}, if any. */
    static void delete(Path workDir) {
        try {
            Files.deleteIfExists(workDir.toAbsolutePath().resolve(NAME));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode read(Path state) {
        try {
            return JSON.readTree(Files.readString(state));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
