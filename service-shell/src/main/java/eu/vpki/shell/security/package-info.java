/**
 * Bearer-token authentication of the management APIs (RCA admin API, Operator API) through Spring
 * Security. A service declares a {@link eu.vpki.shell.security.BearerApi} bean (its paths and how a
 * token is checked); the shell builds one stateless filter chain for all of them that authenticates
 * before a controller runs or a body is read, and answers a refusal with the services' RFC 7807
 * problem. Paths no API claims pass without any security filter (the ETSI endpoints, the trust list
 * downloads). Only services with such an API put Spring Security on their class path.
 */
package eu.vpki.shell.security;
