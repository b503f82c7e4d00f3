/**
 * Code every vpki service shares: the replication library ({@link eu.vpki.common.replication}) and,
 * in later work, the ETSI codec and crypto, certificate profiles and the project-wide error type.
 * Plain Java: no Spring in this module.
 */
package eu.vpki.common;
