package eu.vpki.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The hosts of another {@link HostNetwork}, each with a CPU limit, as a cloud instance size would
 * give: every process started on a host (its service JVM and, for a replica, its redis-server) runs
 * in the host's own cgroup of the cgroup v1 {@code cpu} controller ({@code /sys/fs/cgroup/cpu/PREFIX-<host>}),
 * whose CFS quota lets it use at most {@code cpus} cores' worth of time per 100 ms period, on any core.
 * The launch prefix moves the starting shell into the cgroup before it execs the rest of the host's
 * command, so the service is limited from its first instruction and keeps its pid. The limit can be
 * changed while the processes run ({@link #limit(double)}): one cluster serves a sweep over
 * instance sizes. {@link #close()} removes the cgroups (after the processes ended) and closes the
 * network it wraps; so does a shutdown hook on SIGINT or SIGTERM (Ctrl-C): it gives the services'
 * own hooks {@link #EXIT_GRACE} to stop their processes, kills what is still in a cgroup, and removes
 * the cgroups. Needs root and a writable cgroup v1 cpu hierarchy; {@link #available()} says
 * whether this machine has them (elsewhere nothing is limited, and reports must say so).
 */
public final class CpuLimitedNetwork implements HostNetwork {
    /** The cgroup v1 cpu controller's mount point. */
    static final Path CPU_ROOT = Path.of("/sys/fs/cgroup/cpu");
    /** The CFS period: the quota is this times the cores allowed. */
    static final int PERIOD_MICROS = 100_000;
    private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9]{0,7}");

    /** How long the shutdown hook waits for the processes to end (the services' hooks stop them) before it kills them. */
    static final java.time.Duration EXIT_GRACE = java.time.Duration.ofSeconds(30);

    private final HostNetwork inner;
    private final String prefix;
    private final Path root;
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private final Thread cleanupAtExit;
    private double cpus;
    private boolean closed;

    private CpuLimitedNetwork(HostNetwork inner, String prefix, Path root, double cpus, java.time.Duration exitGrace,
                              Consumer<String> log) {
        this.inner = inner;
        this.prefix = prefix;
        this.root = root;
        this.cpus = cpus;
        this.cleanupAtExit = new Thread(() -> closeAtExit(exitGrace, log), "vpki-cgroup-cleanup-" + prefix);
    }

    /** Whether CPU limits work here: a cgroup v1 cpu hierarchy in which this process may make a cgroup. */
    public static boolean available() {
        return available(CPU_ROOT);
    }

    static boolean available(Path root) {
        if (!Files.isRegularFile(root.resolve("cgroup.procs"))) {
            return false;
        }
        Path probe = root.resolve("vpki-probe-" + ProcessHandle.current().pid());
        try {
            Files.createDirectory(probe);
            boolean quota = Files.isRegularFile(probe.resolve("cpu.cfs_quota_us"));
            Files.delete(probe);
            return quota;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Wraps {@code inner} (now owned: closed with this) so that each of its hosts may use at most
     * {@code cpus} cores. Removes the cgroups an earlier run with the same prefix left, ending the
     * processes still in them (with this prefix they can only be that run's).
     *
     * @param prefix the same rules as {@link NamespaceNetwork}'s: at most 8 lower-case letters and digits
     * @throws IllegalStateException if {@link #available()} is false
     */
    public static CpuLimitedNetwork wrap(HostNetwork inner, String prefix, double cpus, Consumer<String> log) {
        return wrap(inner, prefix, cpus, CPU_ROOT, log);
    }

    static CpuLimitedNetwork wrap(HostNetwork inner, String prefix, double cpus, Path root, Consumer<String> log) {
        return wrap(inner, prefix, cpus, root, EXIT_GRACE, log);
    }

    static CpuLimitedNetwork wrap(HostNetwork inner, String prefix, double cpus, Path root, java.time.Duration exitGrace,
                                  Consumer<String> log) {
        if (!PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("cgroup prefix must match " + PREFIX + ", not " + prefix);
        }
        requirePositive(cpus);
        if (!available(root)) {
            throw new IllegalStateException("no writable cgroup v1 cpu hierarchy at " + root + " (needs root): CPU limits impossible here");
        }
        int swept = sweep(prefix, root, log);
        if (swept > 0) {
            log.accept("removed " + swept + " cgroups left by an earlier run with prefix " + prefix);
        }
        CpuLimitedNetwork net = new CpuLimitedNetwork(inner, prefix, root, cpus, exitGrace, log);
        Runtime.getRuntime().addShutdownHook(net.cleanupAtExit);
        return net;
    }

    /** Removes every CPU cgroup {@code PREFIX-*}, killing the processes left in it (a killed run's); how many it removed. */
    public static int sweep(String prefix, Consumer<String> log) {
        return sweep(prefix, CPU_ROOT, log);
    }

    static int sweep(String prefix, Path root, Consumer<String> log) {
        List<Path> ours;
        try (Stream<Path> dirs = Files.list(root)) {
            ours = dirs.filter(d -> d.getFileName().toString().startsWith(prefix + "-") && Files.isDirectory(d)).toList();
        } catch (IOException e) {
            return 0;
        }
        for (Path dir : ours) {
            killAndRemove(dir, log);
        }
        return ours.size();
    }

    /**
     * Kills what is in a cgroup and removes it, again until the rmdir succeeds: a process started just before
     * (its launch prefix writes it into {@code cgroup.procs} a moment after it was started) may join after the
     * first look, and the rmdir then fails until it is killed too.
     */
    private static void killAndRemove(Path group, Consumer<String> log) {
        remove(group, true, log);
    }

    private static void remove(Path group, boolean kill, Consumer<String> log) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (Files.isDirectory(group)) {
            if (kill) {
                for (long pid : pids(group)) {
                    ProcessHandle.of(pid).ifPresent(p -> {
                        log.accept("killing process " + pid + " left in cgroup " + group + ": " + p.info().command().orElse("?"));
                        p.destroyForcibly();
                        p.onExit().join();
                    });
                }
            }
            try {
                Files.delete(group);
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cannot remove the cgroup " + group + " (processes " + pids(group) + " still in it)",
                            e);
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    @Override
    public synchronized Host host(String name) {
        Host existing = hosts.get(name);
        if (existing != null) {
            return existing;
        }
        Host plain = inner.host(name);
        Path group = root.resolve(prefix + "-" + name);
        try {
            Files.createDirectories(group);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the cgroup " + group, e);
        }
        write(group.resolve("cpu.cfs_period_us"), Integer.toString(PERIOD_MICROS));
        write(group.resolve("cpu.cfs_quota_us"), Long.toString(quota(cpus)));
        List<String> launch = new ArrayList<>(
                List.of("sh", "-c", "echo $$ > '" + group.resolve("cgroup.procs") + "' && exec \"$@\"", "sh"));
        launch.addAll(plain.launchPrefix());
        Host limited = new Host(name, plain.address(), launch);
        hosts.put(name, limited);
        return limited;
    }

    /** Changes every host's limit, also for the processes running now (the kernel applies it from the next period). */
    public synchronized void limit(double newCpus) {
        requirePositive(newCpus);
        cpus = newCpus;
        for (String name : hosts.keySet()) {
            write(root.resolve(prefix + "-" + name).resolve("cpu.cfs_quota_us"), Long.toString(quota(newCpus)));
        }
    }

    /** The cores each host may use. */
    public synchronized double cpus() {
        return cpus;
    }

    /** The pids in a host's cgroup now (to check a process runs limited). */
    public List<Long> pidsOf(String hostName) {
        return pids(root.resolve(prefix + "-" + hostName));
    }

    /**
     * How long the kernel has held back each host's processes for want of quota so far, in seconds
     * ({@code throttled_time} of its {@code cpu.stat}): whether the limit bit.
     */
    public synchronized Map<String, Double> throttledSeconds() {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String name : hosts.keySet()) {
            out.put(name, throttledNanos(root.resolve(prefix + "-" + name)) / 1e9);
        }
        return out;
    }

    @Override
    public boolean partitionable() {
        return inner.partitionable();
    }

    @Override
    public void cut(Collection<Host> side, Collection<Host> others) {
        inner.cut(side.stream().map(h -> inner.host(h.name())).toList(), others.stream().map(h -> inner.host(h.name())).toList());
    }

    @Override
    public void healAll() {
        inner.healAll();
    }

    @Override
    public String launcherAddress() {
        return inner.launcherAddress();
    }

    @Override
    public String describe() {
        return inner.describe() + String.format(Locale.ROOT, "; each host limited to %s (cgroup v1 cpu quota %d us per %d us period)",
                coresPhrase(cpus), quota(cpus), PERIOD_MICROS);
    }

    /** A core count as people write it: 1, 0.5, 1.25. */
    public static String cores(double cpus) {
        return cpus == Math.rint(cpus)
                ? Long.toString((long) cpus)
                : new java.math.BigDecimal(Double.toString(cpus)).stripTrailingZeros()
                        .toPlainString();
    }

    /** e.g. {@code 1 core}, {@code 0.5 core}, {@code 2 cores}. */
    public static String coresPhrase(double cpus) {
        return cores(cpus) + (cpus > 1 ? " cores" : " core");
    }

    @Override
    public void close() {
        List<String> names;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            names = List.copyOf(hosts.keySet());
            hosts.clear();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(cleanupAtExit);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook does the rest
        }
        try {
            inner.close();
        } finally {
            for (String name : names) {
                removeWhenEmpty(root.resolve(prefix + "-" + name));
            }
        }
    }

    /**
     * The shutdown hook (SIGINT, SIGTERM, or the JVM exiting without {@link #close()}): the services' own hooks stop
     * their processes meanwhile; after {@code grace} whatever is still in one of this network's cgroups is killed, the
     * cgroups are removed, and the wrapped network is closed.
     */
    private void closeAtExit(java.time.Duration grace, Consumer<String> log) {
        List<Path> groups;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            groups = hosts.keySet().stream().map(name -> root.resolve(prefix + "-" + name)).toList();
            hosts.clear();
        }
        long deadline = System.nanoTime() + grace.toNanos();
        while (System.nanoTime() < deadline && groups.stream().anyMatch(g -> !pids(g).isEmpty())) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        try {
            sweep(prefix, root, log);
        } finally {
            inner.close();
        }
    }

    private static long quota(double cpus) {
        return Math.max(1_000, Math.round(cpus * PERIOD_MICROS));
    }

    private static void requirePositive(double cpus) {
        if (!(cpus > 0) || cpus > 1024) {
            throw new IllegalArgumentException("a host's CPU limit must be above 0 cores, not " + cpus);
        }
    }

    /** rmdir of a cgroup; a cgroup still holding a process cannot be removed: its processes are given 20 s to end. */
    private static void removeWhenEmpty(Path group) {
        remove(group, false, message -> {
        });
    }

    private static List<Long> pids(Path group) {
        try {
            return Files.readAllLines(group.resolve("cgroup.procs")).stream().filter(l -> !l.isBlank()).map(l -> Long.parseLong(l.strip()))
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static long throttledNanos(Path group) {
        try {
            return Files.readAllLines(group.resolve("cpu.stat")).stream().filter(l -> l.startsWith("throttled_time "))
                    .mapToLong(l -> Long.parseLong(l.substring("throttled_time ".length()).strip())).findFirst().orElse(0);
        } catch (IOException e) {
            return 0;
        }
    }

    private static void write(Path file, String value) {
        try {
            Files.writeString(file, value, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + value + " to " + file, e);
        }
    }
}
