package eu.vpki.shell.audit;

import eu.vpki.common.audit.AuditLog;
import org.slf4j.LoggerFactory;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A service reduced to its logging, run as a process of its own by {@link StructuredLoggingProcessTest}
 * (without the tests' logback configuration, as a service jar runs): one debug-log line, one audit event.
 */
@SpringBootApplication(scanBasePackages = "eu.vpki.shell.none")
public class LoggingProbe {
    public static void main(String[] args) {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(LoggingProbe.class)
                .web(WebApplicationType.NONE).run(args)) {
            LoggerFactory.getLogger(LoggingProbe.class).info("probe debug line");
            context.getBean(AuditLog.class).event("probe-event", "at", "30670162A4EDDD59", "code", "0");
        }
    }
}
