/**
 * Child processes this JVM starts ({@code redis-server}, the testbed's service JVMs): reaped once, by
 * {@link eu.vpki.common.process.ChildProcess}.
 */
package eu.vpki.common.process;
