/** Test helpers of the EA module: a simulated AA, re-encoded captures, single-member and cluster replicas (the stations: {@code eu.vpki.station}). */
package eu.vpki.ea.testing;
