/**
 * Code every vpki service shares: the ETSI codec and crypto, certificate profiles and chain validation
 * ({@code eu.vpki.common.etsi}), the replication library ({@link eu.vpki.common.replication}), the fleet
 * state of the EA and Operator replicas ({@link eu.vpki.common.fleet}), the project-wide error type
 * ({@link eu.vpki.common.error}), the trust-list client ({@link eu.vpki.common.distribution}) and the
 * contracts of the audit log and the replay cache. Plain Java: no Spring in this module.
 */
package eu.vpki.common;
