package eu.vpki.shell.limits;

import java.util.List;
import java.util.Objects;

/**
 * The largest request body a service accepts on some paths: declared as a bean by the service from
 * its own property (EA {@code vpki.ea.max-request-bytes}, AA {@code vpki.aa.max-request-bytes},
 * Operator {@code vpki.operator.max-request-bytes}, DC {@code vpki.dc.max-list-bytes}). Paths no bean
 * names get {@code vpki.http.max-request-bytes}.
 *
 * @param name         the property that sets it, named in the 413 problem and the log
 * @param pathPatterns Spring path patterns, e.g. {@code /ea/**}
 * @param maxBytes     the limit, at least 1
 */
public record RequestBodyLimit(String name, List<String> pathPatterns, long maxBytes) {
    public RequestBodyLimit {
        Objects.requireNonNull(name, "name");
        pathPatterns = List.copyOf(pathPatterns);
        if (pathPatterns.isEmpty() || maxBytes < 1) {
            throw new IllegalArgumentException("a request body limit names at least one path and allows at least one byte");
        }
    }
}
