/**
 * JMH micro-benchmarks of the ETSI crypto core in {@code vpki-common}, each next to the raw
 * BouncyCastle (lightweight API) operation it wraps, measured in the same run, and of the full
 * PKI-side crypto of one EC and one AT issuance. Results and how to run them: {@code docs/benchmarks.md}.
 * Setup (keys, certificates, pre-built station requests) happens in {@code @Setup} methods; only
 * the server-side work is inside the measured methods.
 */
package eu.vpki.benchmarks;
