package eu.vpki.testbed;

import eu.vpki.common.redis.RedisServer;
import eu.vpki.common.redis.RedisServerBinary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Real network namespaces (root only; skipped elsewhere): a redis-server on one host is reached
 * from another host and from this process; a cut stops the first and not the second; a heal
 * restores it; closing removes every namespace and link.
 */
class NamespaceNetworkTest {
    private static final String PREFIX = "vf17t";

    @Test
    void cut_dropsTrafficBetweenHostsOnly_healRestoresIt_closeRemovesEverything(@TempDir Path dir) throws Exception {
        assumeTrue(NamespaceNetwork.available(), "needs root and ip netns");
        try (NamespaceNetwork net = NamespaceNetwork.create(PREFIX, "10.217.250.0/24", line -> {
        })) {
            Host a = net.host("a");
            Host b = net.host("b");
            assertThat(net.host("a")).isSameAs(a);
            assertThat(a.address()).isEqualTo("10.217.250.10");
            RedisServer redis = RedisServer.start(RedisServerBinary.locate(),
                    new RedisServer.Options(6390, dir, false, "everysec", b.address(), b.launchPrefix()));
            try {
                assertThat(ping(redis)).isTrue();
                assertThat(connects(a, b, 6390)).as("a reaches b").isTrue();

                net.cut(List.of(a), List.of(b));
                assertThat(connects(a, b, 6390)).as("a is cut from b").isFalse();
                assertThat(ping(redis)).as("this process still reaches b").isTrue();

                net.healAll();
                assertThat(connects(a, b, 6390)).as("healed").isTrue();
            } finally {
                redis.close();
            }
        }
        String left = run("ip", "netns", "list") + run("ip", "-o", "link", "show");
        assertThat(left).doesNotContain(PREFIX + "-a").doesNotContain(PREFIX + "br").doesNotContain(PREFIX + "h0");
    }

    @Test
    void oneWayCut_dropsOnlyWhatTheCutHostSends_refusingCutFailsConnectionsWithAnError(@TempDir Path dir) throws Exception {
        assumeTrue(NamespaceNetwork.available(), "needs root and ip netns");
        try (NamespaceNetwork net = NamespaceNetwork.create(PREFIX, "10.217.251.0/24", line -> {
        })) {
            Host a = net.host("a");
            Host b = net.host("b");
            RedisServer redis = RedisServer.start(RedisServerBinary.locate(),
                    new RedisServer.Options(6391, dir, false, "everysec", b.address(), b.launchPrefix()));
            try {
                net.cutOneWay(a, List.of(b));
                assertThat(connects(a, b, 6391)).as("a's packets to b are dropped").isFalse();
                assertThat(run("ip", "-n", net.namespace("a"), "route", "show")).contains("blackhole " + b.address());
                assertThat(run("ip", "-n", net.namespace("b"), "route", "show")).as("b's packets to a still leave")
                        .doesNotContain(a.address());
                net.healAll();
                assertThat(connects(a, b, 6391)).as("healed").isTrue();

                net.cutRefusing(List.of(a), List.of(b));
                assertThat(run("ip", "-n", net.namespace("a"), "route", "show")).contains("prohibit " + b.address());
                assertThat(run("ip", "-n", net.namespace("b"), "route", "show")).contains("prohibit " + a.address());
                assertThat(connects(a, b, 6391)).as("refused").isFalse();
                net.healAll();
                assertThat(run("ip", "-n", net.namespace("a"), "route", "show")).doesNotContain("prohibit");
                assertThat(connects(a, b, 6391)).as("healed again").isTrue();
            } finally {
                redis.close();
            }
        }
    }

    private static boolean ping(RedisServer redis) {
        try (Jedis jedis = new Jedis(redis.host(), redis.port(), 2_000)) {
            return "PONG".equals(jedis.ping());
        }
    }

    /** A TCP connection from inside {@code from}'s namespace to {@code to}: bash's /dev/tcp, at most 3 s. */
    private static boolean connects(Host from, Host to, int port) throws Exception {
        List<String> command = new java.util.ArrayList<>(from.launchPrefix());
        command.addAll(List.of("timeout", "3", "bash", "-c", "exec 3<>/dev/tcp/" + to.address() + "/" + port));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return p.exitValue() == 0;
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }
}
