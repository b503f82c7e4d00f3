/**
 * The local cluster: every service of the PKI as its own process ({@link eu.vpki.loadclient.cluster.ServiceProcess}),
 * started by {@link eu.vpki.loadclient.cluster.LocalCluster} on hosts of a
 * {@link eu.vpki.loadclient.cluster.HostNetwork} (loopback, or one network namespace per service; either
 * with a CPU limit per host, {@link eu.vpki.loadclient.cluster.CpuLimitedNetwork}),
 * with the EA and Operator replicas as {@link eu.vpki.loadclient.cluster.ReplicaNode}s that can be
 * killed, paused and restarted, and class-data archives for fast starts.
 */
package eu.vpki.loadclient.cluster;
