package eu.vpki.shell.security;

import eu.vpki.common.testing.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class FailedAttemptsTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-24T10:00:00Z"));
    private final FailedAttempts attempts = new FailedAttempts(3, Duration.ofMinutes(1), 100, clock);

    @Test
    void blocksAfterMaxFailures_untilTheWindowEnds_perClient() {
        attempts.failed("10.0.0.1");
        clock.advance(Duration.ofSeconds(10));
        attempts.failed("10.0.0.1");
        assertThat(attempts.blockedFor("10.0.0.1")).isEmpty();
        attempts.failed("10.0.0.1");

        assertThat(attempts.blockedFor("10.0.0.1")).contains(Duration.ofSeconds(50));
        assertThat(attempts.blockedFor("10.0.0.2")).isEmpty();

        clock.advance(Duration.ofSeconds(49));
        assertThat(attempts.blockedFor("10.0.0.1")).contains(Duration.ofSeconds(1));
        clock.advance(Duration.ofSeconds(1));
        assertThat(attempts.blockedFor("10.0.0.1")).isEmpty();
        // a new window starts with the next failure
        attempts.failed("10.0.0.1");
        assertThat(attempts.blockedFor("10.0.0.1")).isEmpty();
    }

    @Test
    void failuresSpreadOverWindows_neverBlock() {
        for (int i = 0; i < 10; i++) {
            attempts.failed("10.0.0.1");
            attempts.failed("10.0.0.1");
            assertThat(attempts.blockedFor("10.0.0.1")).isEmpty();
            clock.advance(Duration.ofMinutes(1));
        }
    }

    @Test
    void memoryIsBounded_byMaxClients() {
        for (int i = 0; i < 10_000; i++) {
            attempts.failed("client-" + i);
        }
        assertThat(attempts.trackedClients()).isLessThanOrEqualTo(100);
    }

    @Test
    void expiredWindows_areDropped() {
        attempts.failed("10.0.0.1");
        clock.advance(Duration.ofMinutes(2));
        assertThat(attempts.trackedClients()).isZero();
    }
}
