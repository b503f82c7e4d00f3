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
                case PAUSE, PARTITION_MINORITY, PARTITION_COORDINATOR, PARTITION_REFUSING, PARTITION_ONE_WAY, CATCHUP_CRASH, CLOCK_AHEAD,
                        CLOCK_BEHIND, CLOCK_STEP ->
                    assertThat(p.holdMs()).as("longer than failure detection").isBetween(25_000L, 40_000L);
                case SHORT_PAUSE -> assertThat(p.holdMs()).as("beyond the 2 s lease, within the 20 s detection")
                        .isBetween(3_000L, 17_000L);
                case LONG_OUTAGE -> assertThat(p.holdMs()).isEqualTo(FaultSchedule.Timing.DEFAULT_LONG_OUTAGE.toMillis());
                default -> assertThat(p.holdMs()).isBetween(2_000L, 15_000L);
            }
            assertThat(p.size()).isLessThanOrEqualTo(2);
            assertThat(p.picks()).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        }
        assertThat(plans.stream().filter(p -> p.kind() == FaultKind.PARTITION_MINORITY)).allMatch(p -> p.size() == 2);
        assertThat(plans.stream().filter(p -> p.kind() == FaultKind.DOUBLE_KILL)).isNotEmpty().allMatch(p -> p.size() == 2);
        assertThat(plans.stream().filter(p -> p.kind() == FaultKind.SHORT_PAUSE)).isNotEmpty().allMatch(p -> p.size() == 1);
    }

    @Test
    void longOutageAndClockOffset_followTheTiming() {
        FaultSchedule.Timing timing = FaultSchedule.Timing.defaults().with(Duration.ofMinutes(15), Duration.ofSeconds(100));
        List<FaultPlan> plans = FaultSchedule.draw(3, Map.of(FaultKind.LONG_OUTAGE, 2), 3, Duration.ofSeconds(20), timing);

        assertThat(plans).hasSize(2).allMatch(p -> p.holdMs() == Duration.ofMinutes(15).toMillis());
        assertThat(timing.clockOffset()).isEqualTo(Duration.ofSeconds(100));
        assertThat(FaultKind.CLOCK_STEP.clock()).isTrue();
        assertThat(FaultKind.EMPTY_JOIN.clock()).isFalse();
        assertThat(FaultKind.PARTITION_ONE_WAY.network()).isTrue();
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
