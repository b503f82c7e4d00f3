package eu.vpki.shell.security;

import java.util.Optional;

/**
 * How a bearer-token API checks a presented token: plain Java, so a service can adapt its core's
 * credential store (today's formats: the RCA admin token, the Operator credentials file).
 */
@FunctionalInterface
public interface BearerTokens {
    /**
     * The principal a token belongs to (an operator id, {@code admin}), empty if the token is unknown.
     * Implementations compare in constant time.
     */
    Optional<String> principalOf(String token);

    /** Whether the API accepts tokens at all; a disabled API answers every call 403 {@code API_DISABLED}. */
    default boolean enabled() {
        return true;
    }
}
