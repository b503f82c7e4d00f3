/**
 * The one simulated ITS station ({@link eu.vpki.station.SimulatedStation}): its requests and the
 * authorities' answers ({@link eu.vpki.station.StationMessages}), TS 102 941 over HTTP
 * ({@link eu.vpki.station.ObuProtocol}), the PKI it discovers from the CTL, its operator's REST calls
 * and the fleet file. The load generator, the fault harness, the experiments and the EA and AA tests
 * all use it; it speaks through the ETSI API of {@code common} only (no BouncyCastle, no OER glue).
 */
package eu.vpki.station;
