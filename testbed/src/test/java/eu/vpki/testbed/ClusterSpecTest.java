package eu.vpki.testbed;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterSpecTest {
    private static ClusterSpec spec(int eas, int operators, int aas, int base, int jgroupsBase) {
        return new ClusterSpec(Path.of("."), Path.of("run"), eas, operators, aas, "FIFO", "ASYNC", base, jgroupsBase, "nistP256");
    }

    private static ClusterSpec spec(int eas, int operators, int aas, int base) {
        return spec(eas, operators, aas, base, ClusterSpec.defaultJgroupsBasePort(base));
    }

    @Test
    void basePortAlone_movesEveryPort_theDefaultsStayWhereTheDocsSay() {
        assertThat(ClusterSpec.defaultJgroupsBasePort(18080)).isEqualTo(17800);
        assertThat(ClusterSpec.defaultJgroupsBasePort(28080)).isEqualTo(27800);
        assertThat(spec(3, 1, 2, 18080).loopbackPorts()).containsExactlyInAnyOrder(18081, 18082, 18084, 18090, 18091, 18092,
                18110, 18111, 18181, 18182, 18184, 18190, 18191, 18192, 18210, 18211, 17800, 17801, 17802, 17803);
        // two clusters whose base ports are 500 apart share no port, even at the largest shape there is
        Set<Integer> first = new HashSet<>(spec(20, 6, 20, 18080).loopbackPorts());
        assertThat(spec(20, 6, 20, 18580).loopbackPorts()).doesNotContainAnyElementsOf(first);
        assertThat(spec(20, 6, 20, 17580).loopbackPorts()).doesNotContainAnyElementsOf(first);
        assertThatCode(() -> spec(20, 6, 20, 18080).requireDistinctLoopbackPorts()).doesNotThrowAnyException();
    }

    @Test
    void portsUsedTwiceOrOutOfRange_areRefused() {
        // base + 100 = the management ports' range: JGroups 26600.. would meet the RCA's 26601 and the DC's 26602
        assertThatThrownBy(() -> spec(3, 1, 2, 26500, 26600).requireDistinctLoopbackPorts())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[26601, 26602] would be used twice").hasMessageContaining("--jgroups-base-port 26600");
        // JGroups on the EA replicas' public ports
        assertThatThrownBy(() -> spec(3, 1, 2, 18080, 18091).requireDistinctLoopbackPorts())
                .hasMessageContaining("[18091, 18092] would be used twice");
        assertThatThrownBy(() -> spec(3, 1, 2, 200).requireDistinctLoopbackPorts()).hasMessageContaining("out of range");
    }

    @Test
    void aPortInUse_isRefusedWithItsNumber_beforeAnythingStarts() throws IOException {
        try (ServerSocket held = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = held.getLocalPort();
            // a one-of-each cluster whose DC management port is the held one
            int base = port - 2 - ClusterSpec.MANAGEMENT_OFFSET;
            assertThatThrownBy(() -> LocalCluster.refuseUnusableLoopbackPorts(spec(1, 1, 1, base)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageMatching("ports \\[(.*, )?" + port + "(, .*)?\\] are in use(?s).*");
        }
    }
}
