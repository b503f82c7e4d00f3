package eu.vpki.station.cli;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class RegistrationProgressTest {
    private static final long S = 1_000_000_000L;

    @Test
    void line_givesCountShareRateAndTimeLeft_andTheFailedBatches() {
        RegistrationProgress p = new RegistrationProgress(100_000, 0, Duration.ofSeconds(10));
        p.acknowledged(12_000);
        assertThat(p.line(6 * S)).isEqualTo("registered 12,000 of 100,000 (12.0 %), 2,000 stations/s, about 44 s left");
        p.failed(1_000);
        assertThat(p.line(6 * S)).isEqualTo("registered 12,000 of 100,000 (12.0 %), 2,000 stations/s, about 44 s left;"
                + " 1 batch (1,000 stations) failed");
        p.acknowledged(87_000);
        assertThat(p.line(50 * S)).startsWith("registered 99,000 of 100,000 (99.0 %), 1,980 stations/s;").doesNotContain("left");
    }

    @Test
    void due_onceAnIntervalAtMost() {
        RegistrationProgress p = new RegistrationProgress(10, 0, Duration.ofSeconds(10));
        assertThat(p.due(5 * S)).isFalse();
        assertThat(p.due(10 * S)).isTrue();
        assertThat(p.due(15 * S)).isFalse();
        assertThat(p.due(20 * S)).isTrue();
    }

    @Test
    void human_readsAsMinutesAndHours() {
        assertThat(RegistrationProgress.human(Duration.ofSeconds(59))).isEqualTo("59 s");
        assertThat(RegistrationProgress.human(Duration.ofSeconds(507))).isEqualTo("8 min 27 s");
        assertThat(RegistrationProgress.human(Duration.ofSeconds(7_380))).isEqualTo("2 h 3 min");
    }
}
