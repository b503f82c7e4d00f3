/**
 * EA HTTP endpoints (thin: bytes in, bytes out). What cannot become an ETSI response (a body the EA
 * cannot decrypt, an oversize body) is an RFC 7807 problem of the service shell
 * ({@link eu.vpki.shell.problem.ProblemAdvice}).
 */
package eu.vpki.ea.web;
