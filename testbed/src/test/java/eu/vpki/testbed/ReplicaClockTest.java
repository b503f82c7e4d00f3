package eu.vpki.testbed;

import eu.vpki.common.redis.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A replica's clock under libfaketime: the offset file the harness writes, the environment a replica
 * JVM gets, and (where Debian's {@code faketime} is installed; under {@code CI=true} it must be) a real
 * process whose wall clock follows the file, ahead, behind and stepped while it runs.
 */
class ReplicaClockTest {
    static final Path LIBFAKETIME = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1");

    private static ReplicaNode node(Path clockFile) {
        return new ReplicaNode("ea-0", ReplicaNode.Kind.EA, new Host("ea-0", "127.0.0.1", List.of()), java.net.URI.create("http://x"),
                Path.of("redis-server"), (RedisServer) null, clockFile, () -> null);
    }

    @Test
    void setClockOffset_writesSignedSecondsForLibfaketime(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("clock/ea-0.faketime");
        ReplicaNode node = node(file);
        assertThat(Files.readString(file)).isEqualTo("+0\n");
        node.setClockOffset(Duration.ofSeconds(240));
        assertThat(Files.readString(file)).isEqualTo("+240\n");
        node.setClockOffset(Duration.ofSeconds(-120));
        assertThat(Files.readString(file)).isEqualTo("-120\n");
        assertThat(node.clockControllable()).isTrue();
    }

    @Test
    void aReplicaWithoutLibfaketime_refusesAClockFault() {
        ReplicaNode node = node(null);
        assertThat(node.clockControllable()).isFalse();
        assertThatThrownBy(() -> node.setClockOffset(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("real clock");
        assertThatThrownBy(() -> ReplicaNode.faketimeEnvironment(Path.of("/nonexistent/libfaketime.so"), Path.of("x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("apt-get install faketime");
    }

    @Test
    void aProcessUnderTheEnvironment_readsItsWallClockFromTheFile_andFollowsAStep(@TempDir Path dir) throws Exception {
        boolean ci = "true".equals(System.getenv("CI"));
        if (!ci) {
            assumeTrue(Files.isRegularFile(LIBFAKETIME), "needs Debian's faketime (apt-get install faketime)");
        }
        assertThat(LIBFAKETIME).as("under CI=true the clock faults must be testable: apt-get install faketime").isRegularFile();
        Path file = dir.resolve("ea-0.faketime");
        ReplicaNode node = node(file);
        Map<String, String> env = ReplicaNode.faketimeEnvironment(LIBFAKETIME, file);

        node.setClockOffset(Duration.ofDays(400));
        long ahead = epochSeconds(env) - System.currentTimeMillis() / 1000;
        assertThat(ahead).as("a year and more ahead").isBetween(Duration.ofDays(399).toSeconds(), Duration.ofDays(401).toSeconds());

        node.setClockOffset(Duration.ofDays(-400));
        long behind = epochSeconds(env) - System.currentTimeMillis() / 1000;
        assertThat(behind).as("a year and more behind").isBetween(-Duration.ofDays(401).toSeconds(), -Duration.ofDays(399).toSeconds());

        node.setClockOffset(Duration.ZERO);
        long right = epochSeconds(env) - System.currentTimeMillis() / 1000;
        assertThat(right).as("the right time again").isBetween(-Duration.ofDays(1).toSeconds(), Duration.ofDays(1).toSeconds());
    }

    /** {@code date +%s} run under the environment. */
    private static long epochSeconds(Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("date", "+%s").redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return Long.parseLong(out);
    }
}
