/**
 * The Spring Boot shell every authority shares (RCA, DC, EA, Operator, AA): auto-configured through
 * {@code META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}, so a
 * service gets it by having this module on its class path. The cores never see it: they stay plain
 * Java and take what the shell builds (keys, replica, replay cache, audit log) through their
 * constructors. What lives where: {@code docs/service-shell.md}.
 */
package eu.vpki.shell;
