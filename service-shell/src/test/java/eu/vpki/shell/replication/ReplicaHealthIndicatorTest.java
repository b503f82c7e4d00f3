package eu.vpki.shell.replication;

import eu.vpki.common.replication.ReplicaStatus;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;

class ReplicaHealthIndicatorTest {
    private static Health health(ReplicaStatus status) {
        return new ReplicaHealthIndicator(() -> status).health();
    }

    @Test
    void servingReplica_isUp_withItsView() {
        Health h = health(new ReplicaStatus(ReplicaStatus.State.ACTIVE, 3, 3, ""));
        assertThat(h.getStatus()).isEqualTo(Status.UP);
        assertThat(h.getDetails()).containsEntry("state", "active").containsEntry("viewSize", 3).containsEntry("expectedMembers", 3)
                .doesNotContainKey("detail");
    }

    @Test
    void everyStateThatDoesNotServe_isOutOfService_withTheReason() {
        for (ReplicaStatus.State state : ReplicaStatus.State.values()) {
            if (state.serving()) {
                continue;
            }
            Health h = health(new ReplicaStatus(state, 1, 3, "why " + state));
            assertThat(h.getStatus()).as(state.name()).isEqualTo(Status.OUT_OF_SERVICE);
            assertThat(h.getDetails()).containsEntry("detail", "why " + state);
        }
        assertThat(health(new ReplicaStatus(ReplicaStatus.State.MINORITY, 1, 3, "no majority")).getDetails())
                .containsEntry("state", "minority");
        assertThat(health(new ReplicaStatus(ReplicaStatus.State.FAILED, 0, 3, "redis gone")).getDetails())
                .containsEntry("state", "failed");
    }
}
