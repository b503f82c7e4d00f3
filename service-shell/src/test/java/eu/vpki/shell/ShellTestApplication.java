package eu.vpki.shell;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A bare service for the shell's own tests: no controller of its own (each test imports what it
 * needs), everything else from the shell's auto-configuration as a real service gets it.
 */
@SpringBootApplication(scanBasePackages = "eu.vpki.shell.none")
public class ShellTestApplication {
}
