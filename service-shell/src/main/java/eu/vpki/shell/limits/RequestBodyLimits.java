package eu.vpki.shell.limits;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which {@link RequestBodyLimit} a request path gets: the first of the services' limits whose patterns match
 * it, else {@code vpki.http.max-request-bytes}. Shared by the servlet filter ({@link RequestBodyLimitFilter})
 * and the ETSI access point server, so that both refuse the same bodies.
 */
public final class RequestBodyLimits {
    private record Rule(List<PathPattern> patterns, RequestBodyLimit limit) {
    }

    private static final Pattern SLASHES = Pattern.compile("/{2,}");

    private final List<Rule> rules;
    private final RequestBodyLimit fallback;
    /** The limit of each path the first rule that matches it names literally (the ETSI access points): no parsing per request. */
    private final Map<String, RequestBodyLimit> literal = new HashMap<>();

    public RequestBodyLimits(List<RequestBodyLimit> limits, long defaultMaxBytes) {
        PathPatternParser parser = PathPatternParser.defaultInstance;
        this.rules = limits.stream().map(l -> new Rule(l.pathPatterns().stream().map(parser::parse).toList(), l)).toList();
        this.fallback = new RequestBodyLimit("vpki.http.max-request-bytes", List.of("/**"), defaultMaxBytes);
        for (Rule rule : rules) {
            for (PathPattern pattern : rule.patterns()) {
                String text = pattern.getPatternString();
                if (!pattern.hasPatternSyntax() && !text.contains("//")) {
                    literal.putIfAbsent(text, limitOf(text));
                }
            }
        }
    }

    /** The limit that applies to a request path. */
    public RequestBodyLimit limitOf(String path) {
        RequestBodyLimit known = literal.get(path);
        if (known != null) {
            return known;
        }
        // any run of slashes counts as one (the DC answers //publish/... like /publish/...)
        PathContainer container = PathContainer.parsePath(path.contains("//") ? SLASHES.matcher(path).replaceAll("/") : path);
        return rules.stream().filter(r -> r.patterns().stream().anyMatch(p -> p.matches(container))).map(Rule::limit).findFirst()
                .orElse(fallback);
    }
}
