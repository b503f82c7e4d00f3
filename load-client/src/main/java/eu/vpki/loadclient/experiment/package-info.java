/**
 * The paper's experiments reproduced on this machine ({@code experiment} command, docs/experiments.md):
 * {@link eu.vpki.loadclient.experiment.CentralisedExperiment} (one host per authority, a CPU limit
 * per host, open-loop EC and AT latency-versus-throughput sweeps: Figs. 3-5),
 * {@link eu.vpki.loadclient.experiment.ReplicasExperiment} (EC/s against EA replicas per consistency mode
 * and the anomalies the fault harness's checks find under that load: Figs. 6-7),
 * {@link eu.vpki.loadclient.experiment.GeoExperiment} (the geographic configurations: Figs. 8-11) and
 * {@link eu.vpki.loadclient.experiment.CapacityModel} (the operational laws on the measured CPU demands);
 * the paper's values they are compared with ({@link eu.vpki.loadclient.experiment.PaperValues}), and the report
 * ({@link eu.vpki.loadclient.experiment.ExperimentReport}, written as HTML and JSON by
 * {@link eu.vpki.loadclient.experiment.ExperimentReportWriter}). The clusters come from the local cluster
 * launcher ({@code cluster.LocalCluster}, through {@code faults.FaultRun} for the replicas experiment), the
 * EC and AT load from {@code measure.Workload}.
 */
package eu.vpki.loadclient.experiment;
