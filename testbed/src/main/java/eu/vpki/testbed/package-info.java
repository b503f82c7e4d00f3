/**
 * The local cluster: every service of the PKI as its own process ({@link eu.vpki.testbed.ServiceProcess}),
 * started by {@link eu.vpki.testbed.LocalCluster} on hosts of a
 * {@link eu.vpki.testbed.HostNetwork} (loopback, or one network namespace per service; either
 * with a CPU limit per host, {@link eu.vpki.testbed.CpuLimitedNetwork}),
 * with the EA and Operator replicas as {@link eu.vpki.testbed.ReplicaNode}s that can be
 * killed, paused and restarted, and class-data archives for fast starts.
 */
package eu.vpki.testbed;
