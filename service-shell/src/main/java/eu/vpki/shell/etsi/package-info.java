/**
 * The ETSI TS 102 941 access points (the EA's enrolment and authorization validation, the AA's
 * authorization) as plain servlets ({@link eu.vpki.shell.etsi.AccessPointServlet}): a raw COER body
 * in, a raw COER body out, with no Spring MVC dispatch in between (docs/design-thin-path.md); each
 * times itself and is left out of the {@code http.server.requests} observation
 * ({@link eu.vpki.shell.etsi.AccessPointAutoConfiguration}).
 */
package eu.vpki.shell.etsi;
