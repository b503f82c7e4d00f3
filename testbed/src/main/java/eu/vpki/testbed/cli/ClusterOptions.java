package eu.vpki.testbed.cli;

import eu.vpki.testbed.ClusterSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Picocli mixin: the shape of a local cluster (the one option group of every command that starts one). */
public final class ClusterOptions {
    @Mixin
    public PlacementOptions placement = new PlacementOptions();
    @Option(names = "--ea-replicas", defaultValue = "3", description = "EA replicas (default ${DEFAULT-VALUE})")
    public int eaReplicas;
    @Option(names = "--operators", defaultValue = "1", description = "Operator replicas (default ${DEFAULT-VALUE})")
    public int operators;
    @Option(names = "--aas", defaultValue = "2", description = "AA processes (default ${DEFAULT-VALUE})")
    public int aas;
    @Option(names = "--order", defaultValue = "FIFO", description = "replication order TOTAL or FIFO (default ${DEFAULT-VALUE})")
    public String order;
    @Option(names = "--propagation", defaultValue = "ASYNC", description = "replication propagation SYNC or ASYNC (default ${DEFAULT-VALUE})")
    public String propagation;
    @Option(names = "--authority-curve", defaultValue = "nistP256", description = "curve of the RCA, EA and AA keys (default ${DEFAULT-VALUE})")
    public String authorityCurve;
    @Option(names = "--etsi-tls", description = "the ETSI endpoints (DC, EA, AA) speak https only, with certificates of the run's"
            + " TLS CA (default: plain HTTP; the bearer-token APIs speak https always)")
    public boolean etsiTls;
    @Option(names = "--redis-maxmemory", defaultValue = "3gb", description = {"maxmemory of every replica's redis-server (noeviction:"
            + " at the limit writes are refused, nothing is dropped), bytes or with kb, mb, gb (default ${DEFAULT-VALUE}: about"
            + " 1,400,000 enrolled stations at 2.1 KB each, docs/deployment.md, \"Sizing\")"})
    public String redisMaxMemory;

    public ClusterSpec spec() {
        return new ClusterSpec(placement.projectDir.toAbsolutePath(), placement.workDir.toAbsolutePath(), eaReplicas, operators, aas,
                order.toUpperCase(), propagation.toUpperCase(), placement.basePort, placement.jgroupsBase(), authorityCurve)
                .withEtsiTls(etsiTls).withRedisMaxMemory(ClusterSpec.parseBytes(redisMaxMemory));
    }
}
