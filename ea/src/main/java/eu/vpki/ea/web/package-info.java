/**
 * EA HTTP endpoints (thin: bytes in, bytes out) and the one mapping of what escapes the core to HTTP
 * ({@link eu.vpki.ea.web.EaProblems}).
 */
package eu.vpki.ea.web;
