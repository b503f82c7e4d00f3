package eu.vpki.testbed;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Ctrl-C (SIGINT) or SIGTERM to a process that holds hosts: a child JVM ({@link #main}) opens a
 * network of namespaces (where this machine has them, else loopback) with a CPU limit per host,
 * starts a process on one host that would run for ten minutes, and is then sent the signal. Its
 * shutdown hooks must leave no cgroup, no namespace and no process (root with cgroup v1 only).
 */
class ShutdownCleanupTest {
    private static final String PREFIX = "vx19s";

    @Test
    void sigterm_removesCgroupsNamespacesAndProcesses() throws Exception {
        assertCleanedUpAfter("TERM");
    }

    @Test
    void sigint_removesCgroupsNamespacesAndProcesses() throws Exception {
        assertCleanedUpAfter("INT");
    }

    private static void assertCleanedUpAfter(String signal) throws Exception {
        assumeTrue(CpuLimitedNetwork.available(), "needs root and a writable cgroup v1 cpu hierarchy");
        boolean namespaces = NamespaceNetwork.available();
        // A JVM whose SIGINT is ignored on entry (a shell ignores it in the commands it starts in the background,
        // e.g. `mvn verify &` or a CI runner without job control, and exec keeps it ignored) never runs its shutdown
        // hooks on Ctrl-C; so the child starts with SIGINT at its default, as in a terminal (GNU env, coreutils 8.31+).
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), ShutdownCleanupTest.class.getName(), Boolean.toString(namespaces)));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        long sleeper;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            String ready = null;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("ready ")) {
                    ready = line;
                    break;
                }
            }
            assertThat(ready).as("the child started its host process").isNotNull();
            sleeper = Long.parseLong(ready.substring("ready ".length()).strip());
            assertThat(Files.isDirectory(CpuLimitedNetwork.CPU_ROOT.resolve(PREFIX + "-a"))).as("the cgroup exists before").isTrue();
            new ProcessBuilder("kill", "-" + signal, Long.toString(child.pid())).inheritIO().start().waitFor();
            assertThat(child.waitFor(90, TimeUnit.SECONDS)).as("the child exits on SIG" + signal).isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(ProcessHandle.of(sleeper).map(ProcessHandle::isAlive).orElse(false)).as("the host's process is gone").isFalse();
        try (var left = Files.list(CpuLimitedNetwork.CPU_ROOT)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("cgroups left").noneMatch(n -> n.startsWith(PREFIX + "-"));
        }
        if (namespaces) {
            Process list = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
            String netns = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            list.waitFor();
            assertThat(netns).as("namespaces left").doesNotContain(PREFIX + "-");
        }
    }

    /** The child: hosts with a CPU limit, a long process on host a, its pid printed, then waiting for a signal. */
    public static void main(String[] args) throws Exception {
        HostNetwork inner = Boolean.parseBoolean(args[0])
                ? NamespaceNetwork.create(PREFIX, "10.219.250.0/24", System.err::println)
                : new LoopbackNetwork();
        CpuLimitedNetwork net = CpuLimitedNetwork.wrap(inner, PREFIX, 0.5, CpuLimitedNetwork.CPU_ROOT, Duration.ofSeconds(1),
                System.err::println);
        Host a = net.host("a");
        List<String> command = new ArrayList<>(a.launchPrefix());
        command.addAll(List.of("sleep", "600"));
        Process sleeper = new ProcessBuilder(command).start();
        // its launch prefix writes it into the cgroup a moment after it started: announce it once it is there, so
        // that the signal finds it inside (a process that joins while the hook sweeps is the sweep's own concern)
        Path procs = CpuLimitedNetwork.CPU_ROOT.resolve(PREFIX + "-a").resolve("cgroup.procs");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10)).until(() -> !sleeper.isAlive()
                || Files.readAllLines(procs).stream().anyMatch(l -> l.strip().equals(Long.toString(sleeper.pid()))));
        System.out.println("ready " + sleeper.pid());
        System.out.flush();
        Thread.sleep(Duration.ofMinutes(5).toMillis());
    }
}
