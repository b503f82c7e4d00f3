package eu.vpki.common.replication;

import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The serving lease is a round trip, counted from when this member SENT the report a peer echoes, not
 * from when the peer's answer was processed here: with a fake monotonic clock and reports delivered
 * late (the FIFO + ASYNC minority write of the #21 matrix: reports sent before the cut processed
 * 1.4 s after it), a cut-off member stops serving one lease after its last echoed report was sent.
 * No JGroups channel and no Redis: the anti-entropy is driven directly.
 */
class LeaseTest {

    private static final long SECOND = 1_000_000_000L;
    private static final String ORIGIN = "r0~1";
    private final AtomicLong clock = new AtomicLong(100 * SECOND);
    private final Address self = UUID.randomUUID();
    private final Address peer1 = UUID.randomUUID();
    private final Address peer2 = UUID.randomUUID();
    private ReplicationConfig config;
    private AntiEntropy antiEntropy;

    @BeforeEach
    void start() {
        config = DrivenMember.threeMembers();
        assertThat(config.lease()).isEqualTo(Duration.ofSeconds(2));
        ReplicationMetrics metrics = DrivenMember.metrics(config, ORIGIN);
        AppliedWatermarks watermarks = new AppliedWatermarks();
        Applier applier = DrivenMember.idleApplier(ORIGIN, watermarks, metrics);
        antiEntropy = new AntiEntropy(config, ORIGIN, applier, watermarks, null, null, new DrivenMember.SilentPeers(), metrics,
                OriginAuthentication.NONE, clock::get);
        antiEntropy.start(self, View.create(self, 1, self, peer1, peer2));
    }

    private static AppliedReport reportOf(String origin, long stamp, Map<String, Long> echoes) {
        return new AppliedReport(CommandId.replicaIdOf(origin), origin, true, Map.of(), Map.of(), stamp, echoes);
    }

    private void at(long nanosAfterStart) {
        clock.set(100 * SECOND + nanosAfterStart);
    }

    @Test
    void echoDeliveredLate_leaseEndsOneLeaseAfterTheEchoedReportWasSent() {
        long sent = antiEntropy.report().stamp(); // the last report before the cut
        assertThat(sent).isEqualTo(100 * SECOND);

        at(1_400_000_000L); // its echo, sent before the cut, is processed 1.4 s after it
        antiEntropy.reportReceived(peer1, reportOf("r1~1", 7, Map.of(ORIGIN, sent)));

        assertThat(antiEntropy.leaseHolds(clock.get())).as("within the lease of the echoed report").isTrue();
        at(1_999_000_000L);
        assertThat(antiEntropy.leaseHolds(clock.get())).isTrue();
        at(2_001_000_000L);
        assertThat(antiEntropy.leaseHolds(clock.get()))
                .as("2 s after the report was sent, although its echo arrived only 0.6 s ago").isFalse();
    }

    @Test
    void newerEchoes_extendTheLease_andAMajorityIsNeeded() {
        long first = antiEntropy.report().stamp();
        antiEntropy.reportReceived(peer1, reportOf("r1~1", 7, Map.of(ORIGIN, first)));
        at(SECOND);
        long second = antiEntropy.report().stamp();
        at(1_100_000_000L);
        antiEntropy.reportReceived(peer1, reportOf("r1~1", 8, Map.of(ORIGIN, second)));
        at(2_500_000_000L);
        assertThat(antiEntropy.leaseHolds(clock.get())).as("lease from the second report, sent at 1 s").isTrue();

        antiEntropy.viewChanged(View.create(self, 2, self, peer2), false);
        assertThat(antiEntropy.leaseHolds(clock.get())).as("peer1 left: only this member holds its lease").isFalse();
    }

    @Test
    void reportWithoutAnEchoOfASentStamp_extendsNothing() {
        long sent = antiEntropy.report().stamp();
        at(100_000_000L);
        antiEntropy.reportReceived(peer1, reportOf("r1~1", 7, Map.of()));
        antiEntropy.reportReceived(peer2, reportOf("r2~1", 7, Map.of(ORIGIN, sent + 1)));
        antiEntropy.reportReceived(peer2, reportOf("r2~1", 8, Map.of("r9~1", sent)));

        assertThat(antiEntropy.leaseHolds(clock.get()))
                .as("a report that echoes no stamp this member sent (or echoes another member's) is no reply").isFalse();
    }

    @Test
    void report_echoesEachPeersLatestStamp() {
        antiEntropy.reportReceived(peer1, reportOf("r1~1", 41, Map.of()));
        antiEntropy.reportReceived(peer1, reportOf("r1~1", 42, Map.of()));
        antiEntropy.reportReceived(peer2, reportOf("r2~1", -3, Map.of()));
        at(5_000);

        AppliedReport report = antiEntropy.report();

        assertThat(report.stamp()).isEqualTo(100 * SECOND + 5_000);
        assertThat(report.echoes()).isEqualTo(Map.of("r1~1", 42L, "r2~1", -3L));
    }
}
