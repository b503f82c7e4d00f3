package eu.vpki.shell.security;

import java.util.List;
import java.util.Objects;

/**
 * A REST API protected by bearer tokens: declared as a bean by the service that has one.
 *
 * @param name         for logs and the OpenAPI security scheme, e.g. {@code operator}
 * @param pathPatterns Spring path patterns the API serves, e.g. {@code /operator/**}
 * @param tokens       how a presented token is checked
 */
public record BearerApi(String name, List<String> pathPatterns, BearerTokens tokens) {
    public BearerApi {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tokens, "tokens");
        pathPatterns = List.copyOf(pathPatterns);
        if (pathPatterns.isEmpty()) {
            throw new IllegalArgumentException("a bearer API serves at least one path pattern");
        }
    }
}
