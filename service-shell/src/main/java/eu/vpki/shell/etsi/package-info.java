/**
 * The ETSI TS 102 941 access points (the EA's enrolment and authorization validation, the AA's
 * authorization): {@link eu.vpki.shell.etsi.AccessPoint} beans served on the service's public port by
 * {@link eu.vpki.shell.etsi.AccessPointServer}, HTTP/1.1 on Netty event loops ({@link eu.vpki.shell.etsi.EventLoops}),
 * with work that may wait on {@link eu.vpki.shell.etsi.AccessPointWorkers}: a raw COER body in, a raw COER body
 * out, no servlet container in between (docs/design-access-point-server.md). The servlet container keeps the
 * management port ({@link eu.vpki.shell.etsi.AccessPointServerAutoConfiguration}).
 */
package eu.vpki.shell.etsi;
