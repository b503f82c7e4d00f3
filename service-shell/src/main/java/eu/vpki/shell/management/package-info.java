/**
 * Actuator (health, metrics) on a management port of its own, never on the public port: the port
 * defaults to the public port + {@value eu.vpki.shell.management.ManagementDefaults#PORT_OFFSET}
 * on loopback, and a configuration that would put actuator back on the public port fails the start.
 */
package eu.vpki.shell.management;
