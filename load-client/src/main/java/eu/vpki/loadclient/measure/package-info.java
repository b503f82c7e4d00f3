/**
 * Offering load and measuring it: {@link eu.vpki.loadclient.measure.LoadModel} (open or closed loop),
 * {@link eu.vpki.loadclient.measure.LoadRunner} (runs a phase, HdrHistogram latencies, a per-second
 * timeline), {@link eu.vpki.loadclient.measure.PhaseResult}, and
 * {@link eu.vpki.loadclient.measure.Workload}, the one load generator every command uses: enrolment
 * and authorization phases of simulated OBUs and open-loop rate sweeps of either.
 */
package eu.vpki.loadclient.measure;
