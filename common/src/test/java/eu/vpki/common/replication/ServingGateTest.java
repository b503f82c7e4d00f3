package eu.vpki.common.replication;

import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whether a member serves, and why not, driven directly with a fake monotonic clock: no JGroups channel,
 * no Redis. Three expected members: this one and two peers.
 */
class ServingGateTest {

    private static final long SECOND = 1_000_000_000L;
    private static final String ORIGIN = "r0~1";

    private final AtomicLong clock = new AtomicLong(100 * SECOND);
    private final Address self = UUID.randomUUID();
    private final Address peer1 = UUID.randomUUID();
    private final Address peer2 = UUID.randomUUID();
    private final AppliedWatermarks watermarks = new AppliedWatermarks();
    private PeerReports reports;
    private ServingGate gate;

    @BeforeEach
    void start() {
        ReplicationConfig config = DrivenMember.threeMembers();
        Applier applier = DrivenMember.idleApplier(ORIGIN, watermarks, DrivenMember.metrics(config, ORIGIN));
        reports = new PeerReports(config, ORIGIN, clock::get);
        gate = new ServingGate(config, applier, watermarks, reports, clock::get);
        reports.start(self, View.create(self, 1, self, peer1, peer2));
        gate.started();
    }

    /** {@code peer} (origin {@code of}) reports that it applied {@code applied}, echoing this member's latest report. */
    private void heardFrom(Address peer, String of, long stamp, Map<String, Long> applied) {
        long sent = reports.stamp();
        reports.received(peer, new AppliedReport(CommandId.replicaIdOf(of), of, true, applied, Map.of(), stamp, Map.of(ORIGIN, sent)));
    }

    private ServingGate.Verdict verdict() {
        return gate.verdict(clock.get(), 3, Map.of());
    }

    @Test
    void afterJoining_catchesUpBeforeServing() {
        heardFrom(peer1, "r1~1", 1, Map.of());
        assertThat(verdict().state()).isEqualTo(ReplicaStatus.State.CATCHING_UP);
        assertThat(verdict().detail()).isEqualTo("fetching what a majority applied");
        assertThat(gate.serving(clock.get())).isFalse();
    }

    @Test
    void servesOnceItAppliedWhatAMajorityApplied() {
        heardFrom(peer1, "r1~1", 1, Map.of("r1~1", 2L));
        gate.afterRound(clock.get());
        assertThat(gate.synced()).as("r1~1 2 not applied here yet").isFalse();

        watermarks.advanceAll(Map.of("r1~1", 2L));
        gate.afterRound(clock.get());
        assertThat(gate.synced()).isTrue();
        assertThat(verdict()).isEqualTo(new ServingGate.Verdict(ReplicaStatus.State.SERVING, "serving"));
        assertThat(gate.serving(clock.get())).isTrue();
    }

    @Test
    void aMergeStopsServingUntilCaughtUpAgain() {
        heardFrom(peer1, "r1~1", 1, Map.of());
        gate.afterRound(clock.get());
        assertThat(gate.serving(clock.get())).isTrue();

        gate.merged();
        assertThat(verdict().state()).isEqualTo(ReplicaStatus.State.CATCHING_UP);
        clock.addAndGet(SECOND / 10);
        heardFrom(peer1, "r1~1", 2, Map.of());
        gate.afterRound(clock.get());
        assertThat(gate.serving(clock.get())).isTrue();
    }

    @Test
    void aMinorityView_isNotServing() {
        heardFrom(peer1, "r1~1", 1, Map.of());
        gate.afterRound(clock.get());
        reports.viewChanged(View.create(self, 2, self));
        assertThat(gate.serving(clock.get())).isFalse();
        assertThat(gate.verdict(clock.get(), 1, Map.of()))
                .isEqualTo(new ServingGate.Verdict(ReplicaStatus.State.MINORITY, "view of 1 holds no majority of the 3 expected members"));
    }

    @Test
    void anExpiredLease_isAMinority() {
        heardFrom(peer1, "r1~1", 1, Map.of());
        gate.afterRound(clock.get());
        clock.addAndGet(3 * SECOND); // the lease is 2 s
        assertThat(gate.serving(clock.get())).isFalse();
        assertThat(verdict().state()).isEqualTo(ReplicaStatus.State.MINORITY);
        assertThat(verdict().detail()).contains("(its lease)");
    }

    @Test
    void aGap_isNotServing() {
        heardFrom(peer1, "r1~1", 1, Map.of());
        gate.afterRound(clock.get());
        ServingGate.Verdict gap = gate.verdict(clock.get(), 3, Map.of("r1~1", new Applier.Gap("r1~1", 3, 5, 1, clock.get())));
        assertThat(gap).isEqualTo(new ServingGate.Verdict(ReplicaStatus.State.GAP, "commands missing here: [r1~1 3..4]"));
    }

    @Test
    void lagging_isNotServing() {
        heardFrom(peer1, "r1~1", 1, Map.of());
        gate.afterRound(clock.get());
        gate.laggingBehind(true);
        assertThat(gate.serving(clock.get())).isFalse();
        assertThat(verdict()).isEqualTo(new ServingGate.Verdict(ReplicaStatus.State.CATCHING_UP, "lagging more than PT2S behind"));
        gate.laggingBehind(false);
        assertThat(gate.serving(clock.get())).isTrue();
    }
}
