package eu.vpki.common.replication;

import org.jgroups.Address;
import org.jgroups.MergeView;
import org.jgroups.View;
import org.jgroups.ViewId;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MergeReferenceTest {

    private static final Address A = new UUID(0, 1);
    private static final Address B = new UUID(0, 2);
    private static final Address C = new UUID(0, 3);
    private static final Address D = new UUID(0, 4);

    private static View view(Address... members) {
        return View.create(members[0], 5, members);
    }

    @Test
    void largestSubgroupIsTheReference() {
        MergeView merge = new MergeView(new ViewId(C, 9), List.of(A, B, C), List.of(view(C), view(A, B)));

        assertThat(Replica.referenceSubgroup(merge).getMembers()).containsExactly(A, B);
    }

    @Test
    void equalSubgroups_everyMemberPicksTheSameOne() {
        MergeView seenByOne = new MergeView(new ViewId(A, 9), List.of(A, B, C, D), List.of(view(C, D), view(A, B)));
        MergeView seenByOther = new MergeView(new ViewId(A, 9), List.of(A, B, C, D), List.of(view(A, B), view(C, D)));

        assertThat(Replica.referenceSubgroup(seenByOne).getMembers())
                .isEqualTo(Replica.referenceSubgroup(seenByOther).getMembers())
                .containsExactly(A, B);
    }
}
