package eu.vpki.common.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TestPortsTest {
    @Test
    void portsAreDistinct_bindable_andBelowTheEphemeralRange() {
        assumeTrue(System.getProperty("vpki.test.ports") == null, "this build confined the tests' ports to a window of its own");
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = TestPorts.free();
            assertThat(ports.add(port)).as("port %d handed out twice", port).isTrue();
            assertThat(port).isBetween(TestPorts.WINDOW_START, Math.min(TestPorts.WINDOW_END, TestPorts.ephemeralLow()) - 1);
            assertThat(TestPorts.bindable(port)).isTrue();
        }
    }

    @Test
    void portsOfAWindow_areDistinct_bindable_andInsideIt() {
        String window = System.getProperty("vpki.test.ports", TestPorts.WINDOW_START + "-" + (TestPorts.WINDOW_START + 49));
        int low = Integer.parseInt(window.split("-")[0].trim());
        int high = Integer.parseInt(window.split("-")[1].trim());
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            int port = TestPorts.freeIn(window);
            assertThat(ports.add(port)).as("port %d handed out twice", port).isTrue();
            assertThat(port).isBetween(low, high);
            assertThat(TestPorts.bindable(port)).isTrue();
        }
    }

    @Test
    void aBoundPort_isNotBindable() throws IOException {
        try (ServerSocket held = new ServerSocket()) {
            held.bind(new InetSocketAddress(TestPorts.free()));
            assertThat(TestPorts.bindable(held.getLocalPort())).isFalse();
        }
    }
}
