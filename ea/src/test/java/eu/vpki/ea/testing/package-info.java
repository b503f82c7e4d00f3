/** Test helpers of the EA module: simulated stations and AAs, single-member and cluster replicas. */
package eu.vpki.ea.testing;
