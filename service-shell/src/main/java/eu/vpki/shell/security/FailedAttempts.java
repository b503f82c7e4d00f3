package eu.vpki.shell.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Failed bearer-token attempts per client (its address), in fixed windows: the first failure opens a
 * window of {@code window}; once {@code maxFailures} failures fell into it, every call of that client
 * to a bearer-token API is refused until the window ends (429 with {@code Retry-After}), whatever its
 * token. A success does not reset the count (a valid token interleaved with guesses buys no more
 * guesses). At most {@code maxClients} clients are tracked (Caffeine, size-bounded, entries expire
 * with their window): memory stays bounded whatever the number of addresses; a client pushed out
 * early by many others only loses its count. Thread-safe; time from the injected clock.
 */
public final class FailedAttempts {
    private record Window(Instant start, int failures) {
    }

    private final int maxFailures;
    private final Duration window;
    private final Clock clock;
    private final Cache<String, Window> clients;

    public FailedAttempts(int maxFailures, Duration window, int maxClients, Clock clock) {
        if (maxFailures < 1 || window.isNegative() || window.isZero() || maxClients < 1) {
            throw new IllegalArgumentException("failed attempts: max-failures and max-clients at least 1, window positive");
        }
        this.maxFailures = maxFailures;
        this.window = window;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.clients = Caffeine.newBuilder()
                .maximumSize(maxClients)
                .executor(Runnable::run)
                .ticker(() -> clock.millis() * 1_000_000L)
                .expireAfter(Expiry.<String, Window>writing((client, w) -> remaining(w, clock.instant()).plusMillis(1)))
                .build();
    }

    /** How long {@code client} must still wait, if it is blocked now. */
    public Optional<Duration> blockedFor(String client) {
        Window w = clients.getIfPresent(client);
        Instant now = clock.instant();
        if (w == null || w.failures() < maxFailures || !isPositive(remaining(w, now))) {
            return Optional.empty();
        }
        return Optional.of(remaining(w, now));
    }

    /** Records one failed attempt of {@code client}. */
    public void failed(String client) {
        Instant now = clock.instant();
        clients.asMap().merge(client, new Window(now, 1),
                (old, fresh) -> isPositive(remaining(old, now)) ? new Window(old.start(), old.failures() + 1) : fresh);
    }

    /** Clients tracked now (for tests and metrics). */
    public long trackedClients() {
        clients.cleanUp();
        return clients.estimatedSize();
    }

    private static boolean isPositive(Duration d) {
        return !d.isNegative() && !d.isZero();
    }

    private Duration remaining(Window w, Instant now) {
        return Duration.between(now, w.start().plus(window));
    }
}
