package eu.vpki.experiments;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The capacity model's arithmetic against values worked out by hand. */
class CapacityModelTest {
    @Test
    void fit_recoversTheTermsOfExactData() {
        // D = 6/n + 0.5 at n = 3, 5, 7, 9
        List<CapacityModel.EcPoint> points = List.of(3, 5, 7, 9).stream()
                .map(n -> new CapacityModel.EcPoint(n, n + 2, 6.0 / n + 0.5)).toList();
        CapacityModel.EcDemand d = CapacityModel.fit("TOTAL + SYNC", points);
        assertThat(d.origin()).isCloseTo(6.0, within(1e-9));
        assertThat(d.perReplica()).isCloseTo(0.5, within(1e-9));
        // 20 groups: 6/20 + 0.5
        assertThat(d.at(20)).isCloseTo(0.8, within(1e-9));
        assertThat(CapacityModel.fit("one", List.of(new CapacityModel.EcPoint(3, 5, 2), new CapacityModel.EcPoint(3, 5, 4))).at(7))
                .isCloseTo(3.0, within(1e-9));
        assertThatThrownBy(() -> CapacityModel.fit("none", List.of())).hasMessageContaining("no EC measurement");
    }

    @Test
    void fitSequencer_recoversTheRelayCostPerMember() {
        // the coordinator spends 0.1 + 0.02 x (N - 1) ms per command beyond its role, at N = 5, 7, 9, 11
        List<CapacityModel.RelayPoint> points = List.of(5, 7, 9, 11).stream()
                .map(n -> new CapacityModel.RelayPoint(n, 0.1 + 0.02 * (n - 1))).toList();
        CapacityModel.Sequencer s = CapacityModel.fitSequencer(points);
        assertThat(s.fixedMs()).isCloseTo(0.1, within(1e-9));
        assertThat(s.perMemberMs()).isCloseTo(0.02, within(1e-9));
        assertThat(s.points()).isEqualTo(4);
        // 50 groups: N = 100, 0.1 + 0.02 x 99
        assertThat(s.extraMs(100)).isCloseTo(2.08, within(1e-9));
        // one group size: its mean, no growth measured; none: no sequencer
        assertThat(CapacityModel.fitSequencer(List.of(new CapacityModel.RelayPoint(5, 0.3), new CapacityModel.RelayPoint(5, 0.5))))
                .isEqualTo(new CapacityModel.Sequencer(0.4, 0, 2));
        assertThat(CapacityModel.fitSequencer(List.of())).isEqualTo(CapacityModel.Sequencer.NONE);
    }

    /**
     * The paper's shape: with a sequencer whose cost grows with the group, TOTAL order's EC/s falls as groups are added,
     * while FIFO's (every host's demand flat or falling in n) does not. Fails if the sequencer's growth were dropped, had
     * the wrong sign, or were charged to FIFO.
     */
    @Test
    void groups_totalOrderFallsWithGroups_fifoDoesNot() {
        CapacityModel.Instance c6i = CapacityModel.INSTANCES.get(0);
        CapacityModel.EcDemand ea = new CapacityModel.EcDemand("any", 1.0, 1.3, 4);
        CapacityModel.Sequencer relay = new CapacityModel.Sequencer(0.1, 0.02, 4);
        CapacityModel.EcModel total = new CapacityModel.EcModel("TOTAL + SYNC", ea, 0.8, relay, true);
        CapacityModel.EcModel fifo = new CapacityModel.EcModel("FIFO + ASYNC", ea, 0.8, CapacityModel.Sequencer.NONE, true);
        double previousTotal = Double.POSITIVE_INFINITY;
        double previousFifo = 0;
        for (int g : List.of(10, 20, 30, 40, 50)) {
            CapacityModel.GroupPrediction t = CapacityModel.groups(g, total, 1, 1, c6i, c6i, c6i, 1);
            CapacityModel.GroupPrediction f = CapacityModel.groups(g, fifo, 1, 1, c6i, c6i, c6i, 1);
            assertThat(t.ecPerSecond()).as("TOTAL at %d groups", g).isLessThan(previousTotal).isLessThanOrEqualTo(f.ecPerSecond());
            assertThat(f.ecPerSecond()).as("FIFO at %d groups", g).isGreaterThanOrEqualTo(previousFifo);
            previousTotal = t.ecPerSecond();
            previousFifo = f.ecPerSecond();
        }
        // 50 groups, TOTAL: the sequencer's Operator host at 0.8 + 0.1 + 0.02 x 99 = 2.88 ms on 2 cores
        CapacityModel.GroupPrediction fifty = CapacityModel.groups(50, total, 1, 1, c6i, c6i, c6i, 1);
        assertThat(fifty.ecPerSecond()).isCloseTo(2000 / 2.88, within(1e-9));
        assertThat(fifty.ecBottleneck()).isEqualTo("sequencer (Operator host)");
        assertThat(fifty.ecPerSecond()).isLessThan(previousFifo / 2);
        // FIFO at 50 groups: the EA host, 1/50 + 1.3 = 1.32 ms
        assertThat(CapacityModel.groups(50, fifo, 1, 1, c6i, c6i, c6i, 1).ecPerSecond()).isCloseTo(2000 / 1.32, within(1e-9));
        // a sequencer on an EA host adds to the EA host's demand: 1/10 + 1.3 + 0.1 + 0.02 x 19 = 1.88 ms at 10 groups
        CapacityModel.EcModel onEa = new CapacityModel.EcModel("TOTAL + ASYNC", ea, 0.8, relay, false);
        CapacityModel.GroupPrediction ten = CapacityModel.groups(10, onEa, 1, 1, c6i, c6i, c6i, 1);
        assertThat(ten.ecPerSecond()).isCloseTo(2000 / 1.88, within(1e-9));
        assertThat(ten.ecBottleneck()).isEqualTo("sequencer (EA host)");
    }

    @Test
    void saturationAndLatency_followTheUtilisationLawAndMm1() {
        // 2 cores, 4 ms per operation: 500/s
        assertThat(CapacityModel.saturation(2, 4)).isCloseTo(500, within(1e-9));
        // at 250/s: rho 0.5, S = 2 ms, queueing 2 * 0.5 / 0.5 = 2 ms; 10 local + 140 wait + 2
        assertThat(CapacityModel.latency(10, 140, 4, 2, 250)).isCloseTo(152, within(1e-9));
        assertThat(CapacityModel.latency(10, 0, 4, 2, 500)).isInfinite();
        assertThat(CapacityModel.errorPercent(110, 100)).isCloseTo(10, within(1e-9));
        assertThat(CapacityModel.errorPercent(90, 100)).isCloseTo(-10, within(1e-9));
    }

    @Test
    void replicationWait_perModeAcrossTwoRegions() {
        List<Region> both = List.of(Region.IRELAND, Region.US_WEST);
        // Ireland - Oregon 70 ms one way; a writer in Oregon, the sequencer in Ireland
        assertThat(CapacityModel.replicationWaitMs("FIFO", "ASYNC", Region.US_WEST, Region.IRELAND, both)).isZero();
        assertThat(CapacityModel.replicationWaitMs("FIFO", "SYNC", Region.US_WEST, Region.IRELAND, both)).isEqualTo(140);
        assertThat(CapacityModel.replicationWaitMs("TOTAL", "ASYNC", Region.US_WEST, Region.IRELAND, both)).isEqualTo(140);
        assertThat(CapacityModel.replicationWaitMs("TOTAL", "ASYNC", Region.IRELAND, Region.IRELAND, both)).isZero();
        assertThat(CapacityModel.replicationWaitMs("TOTAL", "SYNC", Region.US_WEST, Region.IRELAND, both)).isEqualTo(140);
        // three regions: writer in Frankfurt, sequencer in Ireland, farthest member Oregon: 12 + 70 + 75
        assertThat(CapacityModel.replicationWaitMs("TOTAL", "SYNC", Region.FRANKFURT, Region.IRELAND,
                List.of(Region.IRELAND, Region.FRANKFURT, Region.US_WEST))).isEqualTo(157);
        assertThat(CapacityModel.replicationWaitMs("FIFO", "SYNC", Region.IRELAND, Region.IRELAND, List.of(Region.IRELAND))).isZero();
    }

    @Test
    void groups_takeTheBottleneckHostOfEachOperation() {
        CapacityModel.EcModel ec = new CapacityModel.EcModel("FIFO + ASYNC", new CapacityModel.EcDemand("FIFO + ASYNC", 4, 1, 2), 0.5,
                CapacityModel.Sequencer.NONE, true);
        CapacityModel.Instance c6i = CapacityModel.INSTANCES.get(0);
        CapacityModel.Instance t3 = CapacityModel.INSTANCES.get(3);
        assertThat(t3.cores()).isCloseTo(0.4, within(1e-9));
        // 10 groups: EA host 4/10 + 1 = 1.4 ms per EC on 2 cores = 1,428.6 EC/s; Operator 0.5 ms on 0.4 core = 800 EC/s
        CapacityModel.GroupPrediction r = CapacityModel.groups(10, ec, 2, 0.8, c6i, t3, c6i, 1);
        assertThat(r.ecPerSecond()).isCloseTo(800, within(1e-9));
        assertThat(r.ecBottleneck()).isEqualTo("Operator host");
        // AT: 10 AAs at 2 ms on 2 cores = 10,000; EA validation 0.8 ms on 10 x 2 cores = 25,000
        assertThat(r.atPerSecond()).isCloseTo(10_000, within(1e-9));
        CapacityModel.GroupPrediction c6iOperators = CapacityModel.groups(10, ec, 2, 0.8, c6i, c6i, c6i, 1);
        assertThat(c6iOperators.ecPerSecond()).isCloseTo(2000 / 1.4, within(1e-9));
        assertThat(c6iOperators.ecBottleneck()).isEqualTo("EA host");
        // a vCPU half as fast halves both
        assertThat(CapacityModel.groups(10, ec, 2, 0.8, c6i, c6i, c6i, 0.5).atPerSecond()).isCloseTo(5_000, within(1e-9));
    }
}
