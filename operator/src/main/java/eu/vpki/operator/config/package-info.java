/**
 * Operator shell configuration: validated {@code @ConfigurationProperties} records
 * ({@code vpki.operator.*}; replication and Redis come from the service shell; see
 * {@code docs/configuration.md}) turned into the plain core objects and wired in one place.
 */
package eu.vpki.operator.config;
