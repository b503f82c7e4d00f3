/**
 * Offering load and measuring it: {@link eu.vpki.station.load.LoadModel} (open or closed loop),
 * {@link eu.vpki.station.load.LoadRunner} (runs a phase, HdrHistogram latencies, a per-second
 * timeline), {@link eu.vpki.station.load.PhaseResult}, and
 * {@link eu.vpki.station.load.Workload}, the one load generator every command uses: enrolment
 * and authorization phases of simulated OBUs and open-loop rate sweeps of either.
 */
package eu.vpki.station.load;
