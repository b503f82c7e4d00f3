/**
 * The local cluster: every service of the PKI as its own JVM on this machine
 * ({@link eu.vpki.loadclient.cluster.LocalCluster}, {@link eu.vpki.loadclient.cluster.ServiceProcess}),
 * with class-data archives recorded once per build ({@code AppCdsArchive}); {@code docs/load-client.md}.
 */
package eu.vpki.loadclient.cluster;
