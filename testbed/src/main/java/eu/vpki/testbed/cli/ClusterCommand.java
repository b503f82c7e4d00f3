package eu.vpki.testbed.cli;

import eu.vpki.testbed.ClusterStateFile;
import eu.vpki.testbed.ClassDataRecording;
import eu.vpki.testbed.ClusterSpec;
import eu.vpki.testbed.HostNetwork;
import eu.vpki.testbed.LocalCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** Starts (until Ctrl-C) or stops a local cluster. */
@Command(name = "cluster", mixinStandardHelpOptions = true, description = "Start or stop a local PKI cluster.", subcommands = {
        ClusterCommand.Start.class, ClusterCommand.Stop.class, ClusterCommand.Prepare.class})
public final class ClusterCommand implements Runnable {
    @Override
    public void run() {
        picocli.CommandLine.usage(this, System.out);
    }

    @Command(name = "start", mixinStandardHelpOptions = true, description = {"Start a local cluster and keep it running until Ctrl-C.",
            "A work directory that holds a PKI is started again with its state (keys, certificates, every replica's Redis",
            "data: the stations registered stay); --fresh deletes it and starts a new PKI."})
    static final class Start implements Callable<Integer> {
        @Mixin
        ClusterOptions options;
        @Mixin
        NetworkOptions networkOptions;
        @Option(names = "--fresh", description = "delete what --work-dir holds (keys, certificates, Redis data, logs) and start a new PKI")
        boolean fresh;

        @Override
        public Integer call() throws Exception {
            ClusterSpec spec = options.spec();
            ClassDataRecording.record(spec, System.err::println);
            HostNetwork network = networkOptions.open(System.err::println);
            LocalCluster cluster;
            try {
                cluster = fresh
                        ? LocalCluster.start(spec, network, System.err::println)
                        : LocalCluster.restart(spec, network, System.err::println);
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
                    + options.placement.workDir.resolve("secrets/operator-token") + ")");
            System.out.println("TLS CA    " + e.tlsCa() + "  (RCA admin API and Operators" + (spec.etsiTls() ? ", DC, EA and AA" : "")
                    + " speak https only: trust this CA, e.g.\n"
                    + "          curl --cacert " + e.tlsCa() + " -H \"Authorization: Bearer $(cat "
                    + options.placement.workDir.resolve("secrets/operator-token") + ")\" " + e.operators().get(0)
                    + "/operator/v1/stations)");
            System.out.println("EA        " + e.eaReplicas());
            System.out.println("AA        " + e.aas());
            System.out.println("logs      " + e.logDir());
            System.out.println("running; Ctrl-C or './vpki cluster stop --work-dir " + options.placement.workDir + "' stops it");
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
            if (ClassDataRecording.current(spec)) {
                System.err.println("class-data archives are up to date");
                return 0;
            }
            return ClassDataRecording.record(spec, System.err::println) ? 0 : 1;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, description = "Stop the local cluster started from --work-dir.")
    static final class Stop implements Callable<Integer> {
        @Option(names = "--work-dir", defaultValue = "run/cluster", description = "the cluster's work directory (default ${DEFAULT-VALUE})")
        Path workDir;

        @Override
        public Integer call() {
            int n = ClusterStateFile.stop(workDir.toAbsolutePath());
            System.out.println(n == 0 ? "no cluster running from " + workDir : "stopped " + n + " processes");
            return 0;
        }
    }
}
