package eu.vpki.faults;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class FaultScheduleTest {
    private static List<FaultPlan> draw(long seed) {
        return FaultSchedule.draw(seed, FaultSchedule.matrixCounts(), 5, Duration.ofSeconds(20), FaultSchedule.Timing.defaults());
    }

    @Test
    void sameSeed_sameSchedule() {
        assertThat(draw(42)).isEqualTo(draw(42));
    }

    @Test
    void otherSeed_otherSchedule() {
        assertThat(draw(42)).isNotEqualTo(draw(43));
    }

    @Test
    void countsHoldTimesAndSizes_followTheOptions() {
        List<FaultPlan> plans = draw(7);

        FaultSchedule.matrixCounts().forEach(
                (kind, n) -> assertThat(plans.stream().filter(p -> p.kind() == kind).count()).as(kind.label()).isEqualTo(n.longValue()));
        assertThat(plans).extracting(FaultPlan::index)
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, plans.size()).boxed().toList());
        for (FaultPlan p : plans) {
            switch (p.kind()) {
                case PAUSE, PARTITION_MINORITY, PARTITION_COORDINATOR ->
                    assertThat(p.holdMs()).as("longer than failure detection").isBetween(25_000L, 40_000L);
                default -> assertThat(p.holdMs()).isBetween(2_000L, 15_000L);
            }
            assertThat(p.size()).isLessThanOrEqualTo(2);
            assertThat(p.picks()).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        }
        assertThat(plans.stream().filter(p -> p.kind() == FaultKind.PARTITION_MINORITY)).allMatch(p -> p.size() == 2);
    }

    @Test
    void onlyTheKindsAsked() {
        List<FaultPlan> plans = FaultSchedule.draw(1, Map.of(FaultKind.REPLICA_KILL, 3), 3, Duration.ofSeconds(5),
                FaultSchedule.Timing.defaults());

        assertThat(plans).hasSize(3).allMatch(p -> p.kind() == FaultKind.REPLICA_KILL && p.size() == 1);
    }

    @Test
    void noFaults_anEmptyScheduleForAnyGroup() {
        assertThat(FaultSchedule.draw(1, Map.of(), 1, Duration.ofSeconds(5), FaultSchedule.Timing.defaults())).isEmpty();
        assertThat(FaultSchedule.draw(1, Map.of(FaultKind.PAUSE, 0), 2, Duration.ofSeconds(5), FaultSchedule.Timing.defaults())).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> FaultSchedule.draw(1, Map.of(FaultKind.PAUSE, 1), 2,
                Duration.ofSeconds(5), FaultSchedule.Timing.defaults())).hasMessageContaining("at least 3 replicas");
    }
}
