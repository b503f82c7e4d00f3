/**
 * TLS of the calls a service makes to the ETSI endpoints of the others (the AA to the EA's
 * authorization validation, the EA and the AA to the DCs, the RCA's publication to the DCs, the DC's
 * pulls from the RCA): one {@link eu.vpki.shell.tls.ClientTls} per service, built from a Spring Boot
 * SSL bundle whose trust store holds the CA of the peers' TLS certificates
 * ({@code vpki.tls.client-bundle}; without it the JDK's public CAs). The server side is Spring Boot's
 * own {@code server.ssl.bundle}, the same mechanism as the bearer-token APIs (docs/configuration.md,
 * "TLS").
 */
package eu.vpki.shell.tls;
