/**
 * HTTP side of the AA: the authorization access point ({@link eu.vpki.aa.web.AuthorizationEndpoint}, an
 * {@code AccessPoint} served by the service shell's access point server on Netty event loops, not a servlet)
 * and its body limit; what cannot become an ETSI response is an RFC 7807 problem of the access point server.
 */
package eu.vpki.aa.web;
