/**
 * Outgoing HTTP of production code: {@link eu.vpki.common.http.HttpClients} builds every JDK
 * {@code HttpClient} (version, connect timeout, TLS trust, redirects, daemon threads).
 */
package eu.vpki.common.http;
