package eu.vpki.common.replication;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code vpki.replication.apply-grouping}: its range, and that only ASYNC propagation holds commands. */
class ReplicationConfigTest {

    private static ReplicationConfig config(ReplicationConfig.Propagation propagation, Duration grouping) {
        return new ReplicationConfig("c", "r1", ReplicationConfig.Order.FIFO, propagation, "127.0.0.1", 7800,
                new ReplicationConfig.Discovery.TcpPing("127.0.0.1[7800]"), 1, ReplicationConfig.Timeouts.DEFAULTS, grouping);
    }

    @Test
    void applyGrouping_outsideZeroTo100Ms_isRefusedNamingTheKey() {
        for (Duration bad : new Duration[] {Duration.ofMillis(-1), Duration.ofMillis(101), null}) {
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
}
