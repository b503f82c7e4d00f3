/**
 * EA shell configuration: validated {@code @ConfigurationProperties} records ({@code vpki.ea.*},
 * {@code vpki.keystore.*}, {@code vpki.rca.*}, {@code vpki.replication.*}, {@code vpki.redis.*};
 * see {@code docs/configuration.md}) turned into the plain core objects and wired in one place.
 */
package eu.vpki.ea.config;
