package eu.vpki.shell.audit;

import eu.vpki.common.audit.AuditLog;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The authority's {@link AuditLog}: a {@link LogbackAuditLog} opened at start-up (a directory it
 * cannot write fails the start), and its health indicator {@code audit}.
 */
@AutoConfiguration
@EnableConfigurationProperties(AuditProperties.class)
@ConditionalOnMissingBean(AuditLog.class)
public class AuditAutoConfiguration {

    @Bean(destroyMethod = "close")
    LogbackAuditLog auditLog(AuditProperties audit, Environment environment) {
        String authority = audit.authority() != null
                ? audit.authority()
                : safe(environment.getProperty("spring.application.name", "vpki").replaceFirst("^vpki-", ""));
        String instance = audit.instance() != null ? audit.instance() : defaultInstance();
        return new LogbackAuditLog(authority, instance, audit);
    }

    @Bean
    AuditHealthIndicator auditHealthIndicator(LogbackAuditLog audit) {
        return new AuditHealthIndicator(audit);
    }

    /** Host name and process id: distinct for every process sharing an audit directory. */
    static String defaultInstance() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "host";
        }
        return safe(host + "-" + ProcessHandle.current().pid());
    }

    /** {@code [A-Za-z0-9._-]}, at most 64 characters (the end, which holds the process id). */
    private static String safe(String name) {
        String cleaned = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return cleaned.length() > 64 ? cleaned.substring(cleaned.length() - 64) : cleaned;
    }
}
