package eu.vpki.station.load;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The sweep's stepping: rates rise by the factor, each step offers rate x duration operations, and it stops after saturating. */
class WorkloadSweepTest {
    /** A step that serves at most {@code capacity} per second of a 10-second window, failing nothing. */
    private static PhaseResult served(String name, LoadModel.Open model, double capacity) {
        long ok = (long) Math.min(model.maxOperations(), capacity * 10);
        return new PhaseResult(name, "test", "open", model.ratePerSecond(), model.maxOperations(), ok, Map.of(), Instant.EPOCH,
                Duration.ofSeconds(10), new Histogram(3), List.of());
    }

    @Test
    void sweep_risesByTheFactor_andStopsAfterTheFirstSaturatedStep() {
        List<Long> counts = new ArrayList<>();
        List<PhaseResult> steps = Workload.sweep("AT", 10, 2, 8, Duration.ofSeconds(10), 4, (name, count, model) -> {
            counts.add(count);
            return served(name, model, 50);
        });
        // 10, 20, 40 are served; 80 gets 50: saturated, so no 160
        assertThat(steps).extracting(PhaseResult::phase).containsExactly("AT 10/s", "AT 20/s", "AT 40/s", "AT 80/s");
        assertThat(counts).containsExactly(100L, 200L, 400L, 800L);
        assertThat(Workload.saturated(steps.get(2))).isFalse();
        assertThat(Workload.saturated(steps.get(3))).isTrue();
    }

    @Test
    void sweep_stopsAtMaxStepsWhenNeverSaturated() {
        List<PhaseResult> steps = Workload.sweep("EC", 5, 1.5, 3, Duration.ofSeconds(10), 4,
                (name, count, model) -> served(name, model, 1e9));
        assertThat(steps).hasSize(3);
        assertThat(steps).noneMatch(Workload::saturated);
    }

    @Test
    void saturated_whenMostRequestsFail() {
        PhaseResult failing = new PhaseResult("x", "test", "open", 10.0, 100, 40, Map.of("http:503", 60L), Instant.EPOCH,
                Duration.ofSeconds(4), new Histogram(3), List.of());
        assertThat(Workload.saturated(failing)).isTrue();
    }
}
