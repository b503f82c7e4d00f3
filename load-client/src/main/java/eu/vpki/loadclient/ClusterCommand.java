package eu.vpki.loadclient;

import eu.vpki.loadclient.cluster.ClusterSpec;
import eu.vpki.loadclient.cluster.HostNetwork;
import eu.vpki.loadclient.cluster.LocalCluster;
import eu.vpki.loadclient.cluster.LoopbackNetwork;
import eu.vpki.loadclient.cluster.NamespaceNetwork;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** Starts (until Ctrl-C) or stops a local cluster. */
@Command(name = "cluster", mixinStandardHelpOptions = true, description = "Start or stop a local PKI cluster.",
        subcommands = {ClusterCommand.Start.class, ClusterCommand.Stop.class, ClusterCommand.Prepare.class})
final class ClusterCommand implements Runnable {
    @Override
    public void run() {
        picocli.CommandLine.usage(this, System.out);
    }

    /** The shape of a local cluster. */
    static final class ClusterOptions {
        @Option(names = "--project-dir", defaultValue = ".", description = "checkout with the built service jars (default ${DEFAULT-VALUE})")
        Path projectDir;
        @Option(names = "--work-dir", defaultValue = "run/cluster", description = "state, keys and logs (default ${DEFAULT-VALUE})")
        Path workDir;
        @Option(names = "--ea-replicas", defaultValue = "3", description = "EA replicas (default ${DEFAULT-VALUE})")
        int eaReplicas;
        @Option(names = "--operators", defaultValue = "1", description = "Operator replicas (default ${DEFAULT-VALUE})")
        int operators;
        @Option(names = "--aas", defaultValue = "2", description = "AA processes (default ${DEFAULT-VALUE})")
        int aas;
        @Option(names = "--order", defaultValue = "FIFO", description = "replication order TOTAL or FIFO (default ${DEFAULT-VALUE})")
        String order;
        @Option(names = "--propagation", defaultValue = "ASYNC", description = "replication propagation SYNC or ASYNC (default ${DEFAULT-VALUE})")
        String propagation;
        @Option(names = "--base-port", defaultValue = "18080",
                description = "HTTP ports start here, management ports 100 above (default ${DEFAULT-VALUE})")
        int basePort;
        @Option(names = "--jgroups-base-port", description = "JGroups ports start here (default --base-port - 280: 17800)")
        Integer jgroupsBasePort;
        @Option(names = "--authority-curve", defaultValue = "nistP256", description = "curve of the RCA, EA and AA keys (default ${DEFAULT-VALUE})")
        String authorityCurve;
        @Option(names = "--etsi-tls", description = "the ETSI endpoints (DC, EA, AA) speak https only, with certificates of the run's"
                + " TLS CA (default: plain HTTP; the bearer-token APIs speak https always)")
        boolean etsiTls;

        ClusterSpec spec() {
            return new ClusterSpec(projectDir.toAbsolutePath(), workDir.toAbsolutePath(), eaReplicas, operators, aas,
                    order.toUpperCase(), propagation.toUpperCase(), basePort,
                    jgroupsBasePort != null ? jgroupsBasePort : ClusterSpec.defaultJgroupsBasePort(basePort), authorityCurve)
                    .withEtsiTls(etsiTls);
        }
    }

    /** Where the services run: all on loopback, or each in its own network namespace. */
    static final class NetworkOptions {
        @Option(names = "--network", defaultValue = "loopback", description = {
                "loopback: every service on 127.0.0.1; namespaces: every service in its own network namespace on a",
                "bridge (needs root and 'ip netns'); auto: namespaces when possible (default ${DEFAULT-VALUE})"})
        String network;
        @Option(names = "--net-prefix", defaultValue = "vpkin",
                description = "prefix of the namespaces, bridge and veths made (and of leftovers removed) (default ${DEFAULT-VALUE})")
        String prefix;
        @Option(names = "--subnet", defaultValue = "10.217.0.0/16", description = "IPv4 subnet of the bridge (default ${DEFAULT-VALUE})")
        String subnet;

        /** The network chosen; namespaces are removed when it is closed (and on Ctrl-C). */
        HostNetwork open(java.util.function.Consumer<String> log) {
            return open(network, prefix, subnet, log);
        }

        /** {@code network}: loopback, namespaces or auto (namespaces when this machine allows them). */
        static HostNetwork open(String network, String prefix, String subnet, java.util.function.Consumer<String> log) {
            boolean namespaces = switch (network) {
                case "loopback" -> false;
                case "namespaces" -> true;
                case "auto" -> NamespaceNetwork.available();
                default -> throw new IllegalArgumentException("--network must be loopback, namespaces or auto, not " + network);
            };
            if (namespaces && !NamespaceNetwork.available()) {
                throw new IllegalStateException("--network namespaces needs root and a working 'ip netns'");
            }
            return namespaces ? NamespaceNetwork.create(prefix, subnet, log) : new LoopbackNetwork();
        }
    }

    @Command(name = "start", mixinStandardHelpOptions = true, description = "Start a local cluster and keep it running until Ctrl-C.")
    static final class Start implements Callable<Integer> {
        @Mixin
        ClusterOptions options;
        @Mixin
        NetworkOptions networkOptions;

        @Override
        public Integer call() throws Exception {
            ClusterSpec spec = options.spec();
            LocalCluster.recordArchives(spec, System.err::println);
            HostNetwork network = networkOptions.open(System.err::println);
            LocalCluster cluster;
            try {
                cluster = LocalCluster.start(spec, network, System.err::println);
            } catch (RuntimeException e) {
                network.close();
                throw e;
            }
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                System.err.println("stopping the cluster");
                cluster.close();
                network.close();
                stopped.countDown();
            }, "cluster-stop"));
            LocalCluster.Endpoints e = cluster.endpoints();
            System.out.println("RCA       " + e.rca());
            System.out.println("DC        " + e.dc() + "  (RCA certificate: " + e.rcaCertificate() + ")");
            System.out.println("Operators " + e.operators() + "  (operator " + e.operatorId() + ", token in "
                    + options.workDir.resolve("secrets/operator-token") + ")");
            System.out.println("TLS CA    " + e.tlsCa() + "  (RCA admin API and Operators" + (spec.etsiTls() ? ", DC, EA and AA" : "")
                    + " speak https only: trust this CA, e.g.\n"
                    + "          curl --cacert " + e.tlsCa() + " -H \"Authorization: Bearer $(cat "
                    + options.workDir.resolve("secrets/operator-token") + ")\" " + e.operators().get(0) + "/operator/v1/stations)");
            System.out.println("EA        " + e.eaReplicas());
            System.out.println("AA        " + e.aas());
            System.out.println("logs      " + e.logDir());
            System.out.println("running; Ctrl-C or 'vpki-load cluster stop --work-dir " + options.workDir + "' stops it");
            stopped.await();
            return 0;
        }
    }

    @Command(name = "prepare", mixinStandardHelpOptions = true, description = {
            "Record the services' class-data (AppCDS) archives for faster starts: start a one-of-each cluster on the",
            "ports --base-port and --jgroups-base-port give, stop it. Nothing to do when the archives match the jars.",
            "'demo' and 'cluster start' do it themselves before they start."})
    static final class Prepare implements Callable<Integer> {
        @Mixin
        ClusterOptions options;

        @Override
        public Integer call() {
            ClusterSpec spec = options.spec();
            if (LocalCluster.archivesCurrent(spec)) {
                System.err.println("class-data archives are up to date");
                return 0;
            }
            return LocalCluster.recordArchives(spec, System.err::println) ? 0 : 1;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, description = "Stop the local cluster started from --work-dir.")
    static final class Stop implements Callable<Integer> {
        @Option(names = "--work-dir", defaultValue = "run/cluster", description = "the cluster's work directory (default ${DEFAULT-VALUE})")
        Path workDir;

        @Override
        public Integer call() {
            int n = LocalCluster.stop(workDir.toAbsolutePath());
            System.out.println(n == 0 ? "no cluster running from " + workDir : "stopped " + n + " processes");
            return 0;
        }
    }
}
