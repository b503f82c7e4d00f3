/**
 * EA shell configuration: validated {@code @ConfigurationProperties} records ({@code vpki.ea.*},
 * {@code vpki.rca.*}, {@code vpki.dc.*}; see {@code docs/configuration.md}) turned into the plain
 * core objects and wired in one place. The key store, the replica, its Redis and their health come
 * from the service shell ({@code eu.vpki.shell}).
 */
package eu.vpki.ea.config;
