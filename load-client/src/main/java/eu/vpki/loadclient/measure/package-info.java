/**
 * Offering load and measuring it: {@link eu.vpki.loadclient.measure.LoadModel} (open or closed loop),
 * {@link eu.vpki.loadclient.measure.LoadRunner} (runs a phase, HdrHistogram latencies, a per-second
 * timeline) and {@link eu.vpki.loadclient.measure.PhaseResult}.
 */
package eu.vpki.loadclient.measure;
