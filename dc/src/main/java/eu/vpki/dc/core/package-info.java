/**
 * Plain-Java core of the Distribution Centre (no Spring imports, kept so by {@code CoreArchitectureTest}):
 * {@link eu.vpki.dc.core.TrustedRoots} (which RCAs, and how that trust is bootstrapped),
 * {@link eu.vpki.dc.core.DistributionCentre} (verify, order, store and serve the lists) and
 * {@link eu.vpki.dc.core.RcaPull} (recovery from the RCA). See docs/endpoints.md.
 */
package eu.vpki.dc.core;
