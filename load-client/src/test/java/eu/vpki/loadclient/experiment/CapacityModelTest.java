package eu.vpki.loadclient.experiment;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The capacity model's arithmetic against values worked out by hand. */
class CapacityModelTest {
    @Test
    void fit_recoversTheTermsOfExactData() {
        // D = 6/n + 0.5 + 0.1 N with N = n + 2
        List<CapacityModel.EcPoint> points = List.of(3, 5, 7, 9).stream()
                .map(n -> new CapacityModel.EcPoint(n, n + 2, 6.0 / n + 0.5 + 0.1 * (n + 2))).toList();

        CapacityModel.EcDemand total = CapacityModel.fit("TOTAL + SYNC", points, true);
        assertThat(total.origin()).isCloseTo(6.0, within(1e-9));
        assertThat(total.perReplica()).isCloseTo(0.5, within(1e-9));
        assertThat(total.perMember()).isCloseTo(0.1, within(1e-9));
        // 20 groups: 6/20 + 0.5 + 0.1 * 40 = 4.8
        assertThat(total.at(20, 40)).isCloseTo(4.8, within(1e-9));

        // three replica counts only: no sequencer term even in TOTAL order (three points would fit any three terms exactly)
        assertThat(CapacityModel.fit("TOTAL + SYNC", points.subList(0, 3), true).perMember()).isZero();

        // FIFO: no sequencer term; D = 4/n + 1 exactly
        List<CapacityModel.EcPoint> fifo = List.of(new CapacityModel.EcPoint(3, 5, 4.0 / 3 + 1), new CapacityModel.EcPoint(5, 7, 1.8));
        CapacityModel.EcDemand f = CapacityModel.fit("FIFO + ASYNC", fifo, false);
        assertThat(f.origin()).isCloseTo(4.0, within(1e-9));
        assertThat(f.perReplica()).isCloseTo(1.0, within(1e-9));
        assertThat(f.perMember()).isZero();
        assertThat(CapacityModel.fit("one", List.of(new CapacityModel.EcPoint(3, 5, 2), new CapacityModel.EcPoint(3, 5, 4)), false)
                .at(7, 9)).isCloseTo(3.0, within(1e-9));
        assertThatThrownBy(() -> CapacityModel.fit("none", List.of(), false)).hasMessageContaining("no EC measurement");
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
        CapacityModel.EcDemand ec = new CapacityModel.EcDemand("FIFO + ASYNC", 4, 1, 0, 2);
        CapacityModel.Instance c6i = CapacityModel.INSTANCES.get(0);
        CapacityModel.Instance t3 = CapacityModel.INSTANCES.get(3);
        assertThat(t3.cores()).isCloseTo(0.4, within(1e-9));
        // 10 groups: EA host 4/10 + 1 = 1.4 ms per EC on 2 cores = 1,428.6 EC/s; Operator 0.5 ms on 0.4 core = 800 EC/s
        double[] r = CapacityModel.groups(10, ec, 0.5, 2, 0.8, c6i, t3, c6i, 1);
        assertThat(r[0]).isCloseTo(800, within(1e-9));
        // AT: 10 AAs at 2 ms on 2 cores = 10,000; EA validation 0.8 ms on 10 x 2 cores = 25,000
        assertThat(r[1]).isCloseTo(10_000, within(1e-9));
        double[] c6iOperators = CapacityModel.groups(10, ec, 0.5, 2, 0.8, c6i, c6i, c6i, 1);
        assertThat(c6iOperators[0]).isCloseTo(2000 / 1.4, within(1e-9));
        // a vCPU half as fast halves both
        assertThat(CapacityModel.groups(10, ec, 0.5, 2, 0.8, c6i, c6i, c6i, 0.5)[1]).isCloseTo(5_000, within(1e-9));
    }
}
