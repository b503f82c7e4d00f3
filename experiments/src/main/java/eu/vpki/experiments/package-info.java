/**
 * The paper's experiments reproduced on this machine ({@code experiment} command, docs/experiments.md):
 * {@link eu.vpki.experiments.CentralisedExperiment} (one host per authority, a CPU limit
 * per host, open-loop EC and AT latency-versus-throughput sweeps: Figs. 3-5),
 * {@link eu.vpki.experiments.ReplicasExperiment} (EC/s against EA replicas per consistency mode and the
 * anomalies the fault harness's checks find under that load: Figs. 6-7),
 * {@link eu.vpki.experiments.GeoExperiment} (the geographic configurations: Figs. 8-11),
 * {@link eu.vpki.experiments.CapacityModel} (the operational laws on the measured CPU demands), the paper's values
 * they are compared with ({@link eu.vpki.experiments.PaperValues}), and the report
 * ({@link eu.vpki.experiments.ExperimentReport}, written as HTML and JSON by
 * {@link eu.vpki.experiments.ExperimentReportWriter}). The cluster, its hosts and the load
 * come from the same launcher and load generator as every other command.
 */
package eu.vpki.experiments;
