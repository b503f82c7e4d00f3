package eu.vpki.common.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TestPortsTest {
    @Test
    void portsAreDistinct_bindable_andBelowTheEphemeralRange() {
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = TestPorts.free();
            assertThat(ports.add(port)).as("port %d handed out twice", port).isTrue();
            assertThat(port).isBetween(TestPorts.WINDOW_START, Math.min(TestPorts.WINDOW_END, TestPorts.ephemeralLow()) - 1);
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
