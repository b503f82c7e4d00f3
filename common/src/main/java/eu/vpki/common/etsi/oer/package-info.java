/**
 * BouncyCastle OER glue for the ETSI core: the cached COER codec, conversions of keys, signatures
 * and time. Only code inside {@code eu.vpki.common.etsi} may use this package; services and the
 * load client never see BouncyCastle types (an ArchUnit test in each service module and in the load client
 * keeps it so).
 */
package eu.vpki.common.etsi.oer;
