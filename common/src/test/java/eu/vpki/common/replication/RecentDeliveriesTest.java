package eu.vpki.common.replication;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RecentDeliveriesTest {

    private static byte[] bytes(int size, int tag) {
        byte[] encoded = new byte[size];
        encoded[0] = (byte) tag;
        return encoded;
    }

    private static List<Integer> tags(List<byte[]> encoded) {
        return encoded.stream().map(e -> (int) e[0]).toList();
    }

    @Test
    void keepsTheLastCommandsOfEachOrigin_oldestDroppedFirst() {
        RecentDeliveries recent = new RecentDeliveries(3, 1_000);
        for (int seq = 1; seq <= 5; seq++) {
            recent.add(new CommandId("a", seq), bytes(10, seq));
        }
        recent.add(new CommandId("b", 1), bytes(10, 99));

        assertThat(tags(recent.of("a"))).containsExactly(3, 4, 5);
        assertThat(tags(recent.of("b"))).containsExactly(99);
        assertThat(recent.of("nobody")).isEmpty();
    }

    @Test
    void isBoundedInBytes_butKeepsAtLeastTheLastCommand() {
        RecentDeliveries recent = new RecentDeliveries(100, 250);
        recent.add(new CommandId("a", 1), bytes(100, 1));
        recent.add(new CommandId("a", 2), bytes(100, 2));
        recent.add(new CommandId("a", 3), bytes(100, 3));
        assertThat(tags(recent.of("a"))).containsExactly(2, 3);

        recent.add(new CommandId("a", 4), bytes(1_000, 4));
        assertThat(tags(recent.of("a"))).containsExactly(4);
    }

    @Test
    void ignoresWhatIsNotNewerThanItsLastCommand() {
        RecentDeliveries recent = new RecentDeliveries(10, 1_000);
        recent.add(new CommandId("a", 5), bytes(10, 5));
        recent.add(new CommandId("a", 5), bytes(10, 55));
        recent.add(new CommandId("a", 4), bytes(10, 4));

        assertThat(tags(recent.of("a"))).containsExactly(5);
    }
}
