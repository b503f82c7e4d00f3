package eu.vpki.common.replication;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReplicationSnapshotTest {

    private static ReplicationSnapshot.Member member(String id, boolean self, long reportAge, Map<String, Long> applied) {
        return new ReplicationSnapshot.Member(id, id + "@1", self, false, true, reportAge, applied, 0);
    }

    @Test
    void withBehind_countsPerMemberWhatTheMostAdvancedMemberOfEachOriginAppliedAndItDidNot() {
        List<ReplicationSnapshot.Member> members = ReplicationSnapshot.withBehind(List.of(
                member("r0", true, 0, Map.of("r0@1", 10L, "r1@1", 4L)),
                member("r1", false, 120, Map.of("r0@1", 7L, "r1@1", 6L)),
                member("r2", false, 80, Map.of("r0@1", 10L))));

        assertThat(members).extracting(ReplicationSnapshot.Member::behind).containsExactly(2L, 3L, 6L);
    }

    @Test
    void withBehind_isUnknownForAMemberNoReportOfWhichArrived() {
        List<ReplicationSnapshot.Member> members = ReplicationSnapshot.withBehind(List.of(
                member("r0", true, 0, Map.of("r0@1", 10L)),
                member("r1", false, -1, Map.of())));

        assertThat(members).extracting(ReplicationSnapshot.Member::behind).containsExactly(0L, -1L);
    }

    @Test
    void newest_isTheHighestPositionPerOriginOverEveryMember_sortedByOrigin() {
        ReplicationSnapshot snapshot = snapshot(List.of(
                member("r1", false, 10, Map.of("r1@1", 3L, "r0@1", 9L)),
                member("r0", true, 0, Map.of("r0@1", 11L))), List.of());

        assertThat(snapshot.newest()).containsExactly(Map.entry("r0@1", 11L), Map.entry("r1@1", 3L));
        assertThat(snapshot.self().replicaId()).isEqualTo("r0");
    }

    @Test
    void commandLogLength_sumsTheOrigins_andIsUnknownWhenOneCouldNotBeRead() {
        ReplicationSnapshot.OriginPosition a = new ReplicationSnapshot.OriginPosition("r0@1", 10, 10, 3, 8, 0, 0);
        ReplicationSnapshot.OriginPosition b = new ReplicationSnapshot.OriginPosition("r1@1", 5, 9, 1, 5, 7, 2);
        ReplicationSnapshot.OriginPosition unreadable = new ReplicationSnapshot.OriginPosition("r2@1", 1, 1, 0, -1, 0, 0);

        assertThat(snapshot(List.of(), List.of(a, b)).commandLogLength()).isEqualTo(13);
        assertThat(snapshot(List.of(), List.of(a, unreadable)).commandLogLength()).isEqualTo(-1);
        assertThat(b.behind()).isEqualTo(4);
        assertThat(a.behind()).isZero();
    }

    @Test
    void aReplicaThatIsNoMember_hasNoViewNoCoordinatorAndNoMembers() {
        ReplicationSnapshot snapshot = new ReplicationSnapshot(Instant.EPOCH, "c",
                new ReplicaStatus(ReplicaStatus.State.STARTING, 0, 3, "not joined yet"), null, null, List.of(), List.of(), 0, null);

        assertThat(snapshot.view()).isEmpty();
        assertThat(snapshot.coordinator()).isEmpty();
        assertThat(snapshot.self()).isNull();
        assertThat(snapshot.commandLogLength()).isZero();
    }

    private static ReplicationSnapshot snapshot(List<ReplicationSnapshot.Member> members,
                                                List<ReplicationSnapshot.OriginPosition> origins) {
        return new ReplicationSnapshot(Instant.EPOCH, "c", new ReplicaStatus(ReplicaStatus.State.SERVING, 2, 3, "serving"), "[r0|1]", "r0",
                members, origins, 0, new ReplicationSnapshot.RedisMemory(1, 0));
    }
}
