package eu.vpki.testbed;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Real cgroups (root with a cgroup v1 cpu hierarchy only; skipped elsewhere): a process started on
 * a limited host runs in the host's cgroup under its own pid, the quota is the limit, a busy loop
 * is held back by it (throttled), the limit changes while it runs, closing removes the cgroups,
 * and leftovers of an earlier run are removed at start.
 */
class CpuLimitedNetworkTest {
    private static final String PREFIX = "vx19t";

    @Test
    void hostProcess_runsInItsCgroupUnderTheQuota_isThrottled_closeRemovesTheCgroups() throws Exception {
        assumeTrue(CpuLimitedNetwork.available(), "needs root and a writable cgroup v1 cpu hierarchy");
        Path stale = CpuLimitedNetwork.CPU_ROOT.resolve(PREFIX + "-stale");
        Files.createDirectories(stale);
        Process busy = null;
        try (CpuLimitedNetwork net = CpuLimitedNetwork.wrap(new LoopbackNetwork(), PREFIX, 0.2, line -> {
        })) {
            assertThat(stale).as("an earlier run's cgroup is removed").doesNotExist();
            Host a = net.host("a");
            assertThat(net.host("a")).isSameAs(a);
            assertThat(a.address()).isEqualTo(LoopbackNetwork.ADDRESS);
            Path group = CpuLimitedNetwork.CPU_ROOT.resolve(PREFIX + "-a");
            assertThat(Files.readString(group.resolve("cpu.cfs_quota_us")).strip()).isEqualTo("20000");
            assertThat(net.describe()).contains("each host limited to 0.2 core");

            List<String> command = new ArrayList<>(a.launchPrefix());
            command.addAll(List.of("sh", "-c", "while :; do :; done"));
            busy = new ProcessBuilder(command).start();
            long pid = busy.pid();
            await().atMost(Duration.ofSeconds(30)).until(() -> net.pidsOf("a").contains(pid));
            assertThat(Files.readString(Path.of("/proc/" + pid + "/cgroup"))).as("the started process itself is limited")
                    .contains(PREFIX + "-a");
            await().atMost(Duration.ofSeconds(30)).until(() -> net.throttledSeconds().get("a") > 0);

            net.limit(1.5);
            assertThat(Files.readString(group.resolve("cpu.cfs_quota_us")).strip()).isEqualTo("150000");
            assertThat(net.cpus()).isEqualTo(1.5);
            assertThatThrownBy(() -> net.limit(0)).isInstanceOf(IllegalArgumentException.class);

            busy.destroyForcibly().waitFor();
            net.close();
            assertThat(group).as("closing removes the cgroup").doesNotExist();
        } finally {
            if (busy != null) {
                busy.destroyForcibly().waitFor();
            }
            CpuLimitedNetwork.sweep(PREFIX, line -> {
            });
        }
    }

    @Test
    void wrap_refusesABadPrefix() {
        assertThatThrownBy(() -> CpuLimitedNetwork.wrap(new LoopbackNetwork(), "Bad-Prefix", 1, line -> {
        }))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cores_areWrittenAsPeopleWriteThem() {
        assertThat(CpuLimitedNetwork.cores(1)).isEqualTo("1");
        assertThat(CpuLimitedNetwork.cores(0.5)).isEqualTo("0.5");
        assertThat(CpuLimitedNetwork.coresPhrase(2)).isEqualTo("2 cores");
        assertThat(CpuLimitedNetwork.coresPhrase(1)).isEqualTo("1 core");
    }
}
