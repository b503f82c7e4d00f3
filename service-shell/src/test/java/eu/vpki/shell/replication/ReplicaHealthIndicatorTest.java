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
        Health h = health(new ReplicaStatus(ReplicaStatus.State.SERVING, 3, 3, ""));
        assertThat(h.getStatus()).isEqualTo(Status.UP);
        assertThat(h.getDetails()).containsEntry("state", "serving").containsEntry("viewSize", 3).containsEntry("expectedMembers", 3)
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
        assertThat(health(new ReplicaStatus(ReplicaStatus.State.GAP, "ea-1", "ea-1~mi3k2x1c", 3, 3, 12, 4, "missing")).getDetails())
                .containsEntry("state", "gap").containsEntry("origin", "ea-1~mi3k2x1c").containsEntry("missingCommands", 12L)
                .containsEntry("heldCommands", 4);
        assertThat(health(new ReplicaStatus(ReplicaStatus.State.CATCHING_UP, 3, 3, "fetching")).getStatus())
                .isEqualTo(Status.OUT_OF_SERVICE);
    }
}
