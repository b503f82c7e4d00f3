/**
 * Fetching and ordering the Root CA's trust lists as relying parties (EA, AA, load client, vehicles)
 * get them from a Distribution Centre: the DC URL layout and content types of TS 102 941 Annex D
 * ({@link eu.vpki.common.distribution.DistributionPaths}), the CTL sequence order with its 0..255 wrap
 * ({@link eu.vpki.common.distribution.CtlSequence}) and a verifying client with fail-over between DCs
 * ({@link eu.vpki.common.distribution.TrustListClient}). Plain Java (java.net.http), no Spring.
 */
package eu.vpki.common.distribution;
