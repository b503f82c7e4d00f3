/**
 * Limits before work: every request body is bounded before anything buffers it, with limits per path from
 * each service's {@link eu.vpki.shell.limits.RequestBodyLimit} beans: on the servlet container by
 * {@link eu.vpki.shell.limits.RequestBodyLimitFilter}, on the EA's and the AA's ETSI access points by the
 * access point server ({@code eu.vpki.shell.etsi.AccessPointServer}), which reads the same beans. The servlet
 * container's connection and header limits, which the access point server reads too, are set in one place
 * ({@link eu.vpki.shell.limits.ServerLimitDefaults}).
 */
package eu.vpki.shell.limits;
