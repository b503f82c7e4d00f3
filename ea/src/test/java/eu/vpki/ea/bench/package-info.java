/**
 * Benchmark harness (a main class, not a test): {@link eu.vpki.ea.bench.EnrolmentBenchmark}. Results go to
 * {@code docs/benchmarks.md}, section "EA enrolment (replicated)".
 */
package eu.vpki.ea.bench;
