package eu.vpki.common.replication;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code vpki.replication.apply-grouping}: its range, and that only ASYNC propagation holds commands;
 * {@code status-interval}: its range, and that the lease it gives stays below the reply timeout; majorities.
 */
class ReplicationConfigTest {

    private static ReplicationConfig config(ReplicationConfig.Propagation propagation, Duration grouping) {
        return new ReplicationConfig("c", "r1", ReplicationConfig.Order.FIFO, propagation, "127.0.0.1", 7800,
                new ReplicationConfig.Discovery.TcpPing("127.0.0.1[7800]"), 1, ReplicationConfig.Timeouts.DEFAULTS, grouping);
    }

    @Test
    void applyGrouping_outsideZeroTo100Ms_isRefusedNamingTheKey() {
        for (Duration bad : new Duration[]{Duration.ofMillis(-1), Duration.ofMillis(101), null}) {
            assertThatThrownBy(() -> config(ReplicationConfig.Propagation.ASYNC, bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("apply-grouping");
        }
    }

    @Test
    void applyGrouping_holdsCommandsInAsyncOnly() {
        assertThat(config(ReplicationConfig.Propagation.ASYNC, Duration.ofMillis(5)).effectiveApplyGrouping())
                .isEqualTo(Duration.ofMillis(5));
        assertThat(config(ReplicationConfig.Propagation.SYNC, Duration.ofMillis(5)).effectiveApplyGrouping())
                .isZero();
        assertThat(config(ReplicationConfig.Propagation.ASYNC, Duration.ZERO).effectiveApplyGrouping()).isZero();
        assertThat(ReplicationConfig.defaults("r1").applyGrouping()).isEqualTo(ReplicationConfig.DEFAULT_APPLY_GROUPING);
    }

    private static ReplicationConfig withStatusInterval(Duration interval, Duration reply) {
        return new ReplicationConfig("c", "r1", ReplicationConfig.Order.FIFO, ReplicationConfig.Propagation.SYNC, "127.0.0.1",
                7800, new ReplicationConfig.Discovery.TcpPing("127.0.0.1[7800]"), 3,
                new ReplicationConfig.Timeouts(reply, Duration.ofSeconds(60), Duration.ofSeconds(2), Duration.ofSeconds(20)),
                Duration.ZERO, interval);
    }

    @Test
    void statusInterval_givesALeaseOfFourIntervals_thatMustStayBelowTheReplyTimeout() {
        assertThat(withStatusInterval(Duration.ofMillis(500), Duration.ofSeconds(5)).lease()).isEqualTo(Duration.ofSeconds(2));
        assertThat(ReplicationConfig.defaults("r1").statusInterval()).isEqualTo(ReplicationConfig.DEFAULT_STATUS_INTERVAL);

        assertThatThrownBy(() -> withStatusInterval(Duration.ofSeconds(1), Duration.ofSeconds(4)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reply-timeout");
        for (Duration bad : new Duration[]{Duration.ofMillis(10), Duration.ofSeconds(11), null}) {
            assertThatThrownBy(() -> withStatusInterval(bad, Duration.ofMinutes(5)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("status-interval");
        }
    }

    @Test
    void majority_isMoreThanHalfOfTheExpectedMembers() {
        assertThat(withStatusInterval(Duration.ofMillis(500), Duration.ofSeconds(5)).majority()).isEqualTo(2);
        ReplicationConfig four = new ReplicationConfig("c", "r1", ReplicationConfig.Order.FIFO, ReplicationConfig.Propagation.SYNC,
                "127.0.0.1", 7800, new ReplicationConfig.Discovery.TcpPing("127.0.0.1[7800]"), 4, ReplicationConfig.Timeouts.DEFAULTS);
        assertThat(four.majority()).isEqualTo(3);
        assertThat(four.isMajority(2)).isFalse();
        assertThat(four.isMajority(3)).isTrue();
    }

    @Test
    void membersListed_countsTheTcpPingHosts() {
        assertThat(ReplicationConfig.membersListed("127.0.0.1[7800]")).isEqualTo(1);
        assertThat(ReplicationConfig.membersListed("10.0.0.1[7800],10.0.0.2[7800], 10.0.0.3[7800]")).isEqualTo(3);
    }
}
