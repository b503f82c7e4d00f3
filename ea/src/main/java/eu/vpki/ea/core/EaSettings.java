package eu.vpki.ea.core;

import java.time.Duration;
import java.util.Objects;

/**
 * Tunables of the EA core (from {@code vpki.ea.*}).
 *
 * @param requestWindow       how old a request's generation time may be; replayed bodies are refused within it
 * @param clockSkew           how far in the future a generation time may be
 * @param replicationTimeout  longest wait for the replication of an issued EC before refusing
 * @param ecBackdate          how long before issuance an EC's validity starts (its length is counted from there)
 */
public record EaSettings(Duration requestWindow, Duration clockSkew, Duration replicationTimeout,
                         Duration ecBackdate) {
    /** Default EC backdate: the request window (docs/architecture.md, "Validity start"). */
    public static final Duration DEFAULT_BACKDATE = Duration.ofMinutes(5);
    public static final EaSettings DEFAULTS = new EaSettings(Duration.ofMinutes(5), Duration.ofSeconds(30), Duration.ofSeconds(10),
            DEFAULT_BACKDATE);

    public EaSettings {
        requirePositive(requestWindow, "request-window");
        Objects.requireNonNull(clockSkew, "clock-skew");
        if (clockSkew.isNegative()) {
            throw new IllegalArgumentException("clock-skew must not be negative");
        }
        requirePositive(replicationTimeout, "replication-timeout");
        Objects.requireNonNull(ecBackdate, "ec-backdate");
        if (ecBackdate.isNegative() || ecBackdate.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("ec-backdate must be between 0 and 1 day, got " + ecBackdate);
        }
    }

    private static void requirePositive(Duration d, String key) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(key + " must be positive, got " + d);
        }
    }
}
