/**
 * Offering load and measuring it: {@link eu.vpki.station.load.LoadModel} (open, closed or paced),
 * {@link eu.vpki.station.load.LoadRunner} (runs a phase, HdrHistogram latencies, a per-second
 * timeline), {@link eu.vpki.station.load.PhaseResult}, and
 * {@link eu.vpki.station.load.Workload}: enrolment and authorization phases of simulated OBUs and open-loop
 * rate sweeps of either, on {@code LoadRunner} ({@code demo}, {@code enrol}, {@code fetch}, {@code sweep}, the
 * experiments); the fault harness drives {@code LoadRunner} directly with a paced model. The EA and AA benchmark
 * harnesses ({@code EnrolmentBenchmark}, {@code AaThroughputBenchmark}) still generate their load themselves.
 */
package eu.vpki.station.load;
