package eu.vpki.testbed;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReplicaConvergenceTest {
    @Test
    void latest_isTheHighestSequencePerOrigin() {
        assertThat(ReplicaConvergence.latest(List.of(Map.of("ea-0", 5L, "op-0", 2L), Map.of("ea-0", 3L, "ea-1", 7L))))
                .isEqualTo(Map.of("ea-0", 5L, "ea-1", 7L, "op-0", 2L));
    }

    @Test
    void reached_needsEveryOriginOfTheTarget() {
        Map<String, Long> target = Map.of("ea-0", 5L, "ea-1", 7L);
        assertThat(ReplicaConvergence.reached(Map.of("ea-0", 5L, "ea-1", 9L), target)).isTrue();
        assertThat(ReplicaConvergence.reached(Map.of("ea-0", 4L, "ea-1", 9L), target)).as("one origin behind").isFalse();
        assertThat(ReplicaConvergence.reached(Map.of("ea-0", 5L), target)).as("an origin never applied").isFalse();
    }
}
