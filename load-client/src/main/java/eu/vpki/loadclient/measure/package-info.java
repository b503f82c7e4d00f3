/**
 * Offering load and measuring it: {@link eu.vpki.loadclient.measure.LoadModel} (open or closed loop),
 * {@link eu.vpki.loadclient.measure.LoadRunner} (runs a phase, HdrHistogram latencies, a per-second
 * timeline), {@link eu.vpki.loadclient.measure.PhaseResult}, and
 * {@link eu.vpki.loadclient.measure.Workload}: enrolment and authorization phases of simulated OBUs and
 * open-loop rate sweeps of either, used by {@code demo}, {@code enrol}, {@code fetch}, {@code sweep} and
 * the experiments. It is not the only load generator: the fault harness paces its own
 * ({@code faults.ConsistencyWorkload}), and the EA and AA benchmark harnesses have theirs.
 */
package eu.vpki.loadclient.measure;
