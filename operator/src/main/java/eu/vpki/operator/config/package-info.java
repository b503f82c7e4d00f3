/**
 * Operator shell configuration: validated {@code @ConfigurationProperties} records
 * ({@code vpki.operator.*}, {@code vpki.replication.*}, {@code vpki.redis.*}; see
 * {@code docs/configuration.md}) turned into the plain core objects and wired in one place.
 */
package eu.vpki.operator.config;
