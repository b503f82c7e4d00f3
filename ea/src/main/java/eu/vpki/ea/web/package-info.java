/**
 * EA HTTP access points (thin: bytes in, bytes out), served by the service shell's access point server
 * ({@link eu.vpki.shell.etsi.AccessPointServer}). What cannot become an ETSI response (a body the EA
 * cannot decrypt, an oversize body, a wrong content type) is an RFC 7807 problem of the service shell.
 */
package eu.vpki.ea.web;
