/**
 * Limits before work: every request body is bounded before anything buffers it
 * ({@link eu.vpki.shell.limits.RequestBodyLimitFilter}, limits per path from each service's
 * {@link eu.vpki.shell.limits.RequestBodyLimit} beans), and the servlet container's connection and
 * header limits are set in one place ({@link eu.vpki.shell.limits.ServerLimitDefaults}).
 */
package eu.vpki.shell.limits;
